import { createHash } from 'node:crypto';
import { invalidOptions, type RedisClientLike, withTimeout } from './redis-client.js';
import type { ReplayStore } from './replay-store.js';

export interface RedisReplayStoreOptions {
  /** A connected node-redis v6 client (the one connect-redis uses is fine). */
  client: RedisClientLike;
  /** Key prefix. Default `verify-kit:webhook-id:`. */
  prefix?: string;
}

export const DEFAULT_REPLAY_PREFIX = 'verify-kit:webhook-id:';

/**
 * Accepted webhook-ids in Redis, shared by every instance: `SET <prefix><sha256(id)> 1 NX EX <ttl>`
 * is atomic, so of two copies of one delivery reaching two instances only one is accepted. When
 * Redis is not connected or does not answer, claim() rejects at once and the kit falls back to its
 * in-process memory (logged).
 */
export function createRedisReplayStore(
  options: RedisReplayStoreOptions,
  defaultPrefix = DEFAULT_REPLAY_PREFIX,
): ReplayStore {
  const factory = 'createRedisReplayStore';
  const client = options?.client;
  if (typeof client !== 'object' || client === null || typeof client.sendCommand !== 'function') {
    throw invalidOptions(factory, 'client must be a connected node-redis v6 client: createClient({ url })');
  }
  const prefix = options.prefix ?? defaultPrefix;
  if (typeof prefix !== 'string' || prefix.length > 256) {
    throw invalidOptions(factory, 'prefix must be a string of at most 256 characters');
  }
  return {
    async claim(id, ttlSeconds) {
      if (!client.isReady) throw new Error('redis is not connected');
      // Hashed: a custom verifier's ids may be long; the key stays short and printable.
      const key = prefix + createHash('sha256').update(id).digest('base64url');
      const ttl = String(Math.max(1, Math.ceil(ttlSeconds)));
      const reply = await withTimeout(client.sendCommand(['SET', key, '1', 'NX', 'EX', ttl]));
      return reply !== null && reply !== undefined;
    },
  };
}
