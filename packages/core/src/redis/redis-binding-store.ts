import { parseBinding } from '../bindings/binding.js';
import {
  type BindingStore,
  type RecordStore,
  type StatusRecord,
  type StoredDecision,
  withFlatMethods,
} from '../bindings/binding-store.js';
import {
  bindingExpiresAt,
  type Retention,
  resolveRetention,
  statusRecordExpiresAt,
} from '../bindings/retention.js';
import {
  commandRunner,
  invalidOptions,
  openConnection,
  type RedisConnectionOptions,
  shutDown,
} from './redis-client.js';

export interface RedisBindingStoreOptions extends RedisConnectionOptions {
  /**
   * Key prefix. Default `verify-kit:`: bindings under `<prefix>account:<id>`, statuses under
   * `<prefix>status:<id>`, decisions under `<prefix>decision:<id>` (expiring).
   */
  prefix?: string;
  /** How long bindings and status records are kept (every key expires). Default 365 days approved, 7 days pending. */
  retention?: Retention;
}

/** A RecordStore in Redis (and, until 1.0, the deprecated flat BindingStore methods). */
export interface RedisBindingStore extends RecordStore, BindingStore {
  /** Closes the connection verify-kit opened from `url` (not a client you passed). Idempotent. */
  close(): Promise<void>;
}

export const DEFAULT_BINDING_PREFIX = 'verify-kit:';

// The record is stored whole; its status beside it, so the comparison needs no JSON in Lua.
const COMPARE_AND_SET = `
local current = redis.call('HGET', KEYS[1], 'status')
if (current == false and ARGV[1] == '') or current == ARGV[1] then
  redis.call('HSET', KEYS[1], 'status', ARGV[2], 'record', ARGV[3])
  redis.call('PEXPIREAT', KEYS[1], ARGV[4])
  return 1
end
return 0`;

// Newer wins: `next` is stored unless the stored decision's `at` is later; it expires after ARGV[3] ms.
const PUT_DECISION = `
local current = redis.call('HGET', KEYS[1], 'at')
if current and tonumber(current) > tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'at', ARGV[1], 'decision', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`;

function parseDecision(value: unknown): StoredDecision | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const { status, at, source, reReadAfterMs } = JSON.parse(value) as Partial<StoredDecision>;
    if (status !== null && typeof status !== 'string') return undefined;
    if (typeof at !== 'number' || (source !== 'read' && source !== 'webhook')) return undefined;
    return {
      status,
      at,
      source,
      ...(typeof reReadAfterMs === 'number' ? { reReadAfterMs } : {}),
    };
  } catch {
    return undefined;
  }
}

function parseRecord(value: unknown): StatusRecord | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const record = JSON.parse(value) as Partial<StatusRecord>;
    return typeof record.status === 'string' && typeof record.observedAt === 'number'
      ? (record as StatusRecord)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Bindings and last-seen statuses in Redis, shared by every instance. A call made while Redis
 * restarts waits for it; each call gives up after 2 s, and the kit then answers 503
 * BINDING_STORE_UNAVAILABLE (the gate fails closed).
 */
export function createRedisBindingStore(options: RedisBindingStoreOptions): RedisBindingStore {
  const factory = 'createRedisBindingStore';
  const prefix = options?.prefix ?? DEFAULT_BINDING_PREFIX;
  if (typeof prefix !== 'string' || prefix.length > 256) {
    throw invalidOptions(factory, 'prefix must be a string of at most 256 characters');
  }
  const retention = resolveRetention(factory, options?.retention);
  const connection = openConnection(factory, options);
  const { client } = connection;
  // Waits out a reconnect (a Redis restart, or an owned client still connecting) within 2 s.
  const command = commandRunner(client);
  const accountKey = (accountId: string) => `${prefix}account:${accountId}`;
  const statusKey = (identificationId: string) => `${prefix}status:${identificationId}`;
  const decisionKey = (identificationId: string) => `${prefix}decision:${identificationId}`;
  let closed = false;

  const store: RecordStore & { close(): Promise<void> } = {
    bindings: {
      async get(accountId) {
        const value = await command(['GET', accountKey(accountId)]);
        if (typeof value !== 'string') return undefined;
        try {
          return parseBinding(JSON.parse(value));
        } catch {
          return undefined;
        }
      },
      async set(accountId, binding) {
        const until = String(bindingExpiresAt(binding, retention));
        await command(['SET', accountKey(accountId), JSON.stringify(binding), 'PXAT', until]);
      },
      async delete(accountId) {
        await command(['DEL', accountKey(accountId)]);
      },
    },
    statusRecords: {
      async get(identificationId) {
        return parseRecord(await command(['HGET', statusKey(identificationId), 'record']));
      },
      async compareAndSet(identificationId, expectedStatus, next) {
        const until = String(statusRecordExpiresAt(next, retention));
        const args = [expectedStatus ?? '', next.status, JSON.stringify(next), until];
        const reply = await command(['EVAL', COMPARE_AND_SET, '1', statusKey(identificationId), ...args], {
          repeatable: false,
        });
        return reply === 1;
      },
      async delete(identificationId) {
        await command(['DEL', statusKey(identificationId)]);
      },
    },
    decisions: {
      async get(identificationId) {
        return parseDecision(await command(['HGET', decisionKey(identificationId), 'decision']));
      },
      async put(identificationId, next, ttlMs) {
        const args = [String(next.at), JSON.stringify(next), String(Math.max(1, Math.ceil(ttlMs)))];
        const reply = await command(['EVAL', PUT_DECISION, '1', decisionKey(identificationId), ...args]);
        return reply === 1;
      },
      async delete(identificationId) {
        await command(['DEL', decisionKey(identificationId)]);
      },
    },
    async health() {
      // Readiness now: a balancer's check does not wait for a reconnect.
      return client.isReady && (await command(['PING'])) === 'PONG';
    },
    async close() {
      if (closed) return;
      closed = true;
      if (connection.owned) await shutDown(client);
    },
  };
  return withFlatMethods(store);
}
