import { sha256Base64Url } from '../shared/sha256.js';
import type { ReplayStore } from '../webhooks/replay-store.js';
import { commandRunner, invalidOptions, type RedisClientLike } from './redis-client.js';

export interface RedisReplayStoreOptions {
  /** A connected node-redis v6 client (the one connect-redis uses is fine). */
  client: RedisClientLike;
  /** Key prefix. Default `verify-kit:webhook-id:`. */
  prefix?: string;
}

export const DEFAULT_REPLAY_PREFIX = 'verify-kit:webhook-id:';

/**
 * Accepted webhook-ids in Redis, shared by every instance: `SET <prefix><sha256(id)> 1 NX EX <ttl>`
 * is atomic, so of two copies of one delivery reaching two instances only one is accepted. While
 * Redis restarts claim() waits for it; when Redis is not back or does not answer within 2 s, it
 * rejects and the kit falls back to its in-process memory (logged).
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
  const command = commandRunner(client);
  return {
    async claim(id, ttlSeconds) {
      // Hashed: a custom verifier's ids may be long; the key stays short and printable.
      const key = prefix + (await sha256Base64Url(id));
      const ttl = String(Math.max(1, Math.ceil(ttlSeconds)));
      // Not repeated: after a lost answer a second SET NX would take the id for a replay.
      const reply = await command(['SET', key, '1', 'NX', 'EX', ttl], { repeatable: false });
      return reply !== null && reply !== undefined;
    },
  };
}
