// Every store the Express kit offers obeys the same RecordStore contract: the memory store, the Redis
// store (a real redis-server) and a store of the deprecated flat BindingStore shape as the kit adapts
// it. (The memory, Redis and SQL stores also pass the published contract, @verify-kit/core/testing:
// packages/core/test/store-contract-*.test.ts.)
import { toRecordStore } from '@verify-kit/core/internal/bindings/binding-store';
import { type RedisServer, startRedisServer } from '@verify-kit/testkit';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BindingStore,
  bindingExpiresAt,
  createMemoryBindingStore,
  type RecordStore,
  type StatusRecord,
  statusRecordExpiresAt,
  type VerificationBinding,
} from '../src/index.js';
import { createRedisBindingStore, type RedisBindingStore } from '../src/redis.js';

const binding: VerificationBinding = {
  verificationSessionId: 'vs-1',
  identificationId: 'id-1',
  deepLink: 'idv://app-url/https://idv.example/verification-session/vs-1',
  sessionCode: 'ABCD2345',
  sessionPageLink: 'https://idv.example/public/verification-sessions/vs-1',
  expiresAt: new Date(Date.now() + 30 * 60_000).toISOString(),
};
const DAY_MS = 86_400_000;
const record = (status: string, observedAt: number): StatusRecord => ({
  status,
  observedAt: Date.now() + observedAt,
  accountId: 'ada',
  verificationSessionId: 'vs-1',
  expiresAt: binding.expiresAt,
});

let redis: RedisServer;
const closers: (() => Promise<void>)[] = [];
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  for (const close of closers) await close();
  await redis?.stop();
});

/** A store written to the deprecated flat shape (here the memory store's flat methods alone), adapted. */
function adaptedFlatStore(): RecordStore {
  const memory = createMemoryBindingStore();
  const flat: BindingStore = {
    get: memory.get,
    set: memory.set,
    delete: memory.delete,
    getStatus: memory.getStatus,
    compareAndSetStatus: memory.compareAndSetStatus,
    deleteStatus: memory.deleteStatus,
    getDecision: memory.getDecision,
    putDecision: memory.putDecision,
    deleteDecision: memory.deleteDecision,
  };
  return toRecordStore(flat);
}

const stores: [string, () => Promise<RecordStore>][] = [
  ['memory', async () => createMemoryBindingStore()],
  [
    'redis',
    async () => {
      const store: RedisBindingStore = createRedisBindingStore({
        url: redis.url,
        prefix: `t${Math.random()}:`,
      });
      closers.push(() => store.close());
      return store;
    },
  ],
  ['a flat BindingStore (deprecated), adapted', async () => adaptedFlatStore()],
];

describe.each(stores)('RecordStore contract: %s', (_name, make) => {
  it('decisions: the later `at` wins whatever the order of arrival; delete removes it', async () => {
    const store = await make();
    const at = Date.now();
    expect(await store.decisions.get('id-1')).toBeUndefined();
    expect(await store.decisions.put('id-1', { status: 'APPROVED', at, source: 'read' }, 60_000)).toBe(true);
    // A webhook received after that read replaces it; the read that started before it cannot return.
    const revoked = { status: 'REJECTED', at: at + 5, source: 'webhook' } as const;
    expect(await store.decisions.put('id-1', revoked, 60_000)).toBe(true);
    expect(
      await store.decisions.put('id-1', { status: 'APPROVED', at: at + 4, source: 'read' }, 60_000),
    ).toBe(false);
    expect(await store.decisions.get('id-1')).toEqual(revoked);
    const invalidated = { status: null, at: at + 9, source: 'webhook' } as const;
    expect(await store.decisions.put('id-1', invalidated, 60_000)).toBe(true);
    expect(await store.decisions.get('id-1')).toEqual(invalidated);
    // A grant that overrode a verified refusal keeps when it is due again (decisions.ts, record()).
    const overriding = { status: 'APPROVED', at: at + 12, source: 'read', reReadAfterMs: 5000 } as const;
    expect(await store.decisions.put('id-1', overriding, 60_000)).toBe(true);
    expect(await store.decisions.get('id-1')).toEqual(overriding);
    expect(await store.decisions.get('id-2')).toBeUndefined();
    await store.decisions.delete('id-1');
    expect(await store.decisions.get('id-1')).toBeUndefined();
  });

  it('keeps, replaces and deletes an account’s binding', async () => {
    const store = await make();
    expect(await store.bindings.get('ada')).toBeUndefined();
    await store.bindings.set('ada', binding);
    expect(await store.bindings.get('ada')).toEqual(binding);
    await store.bindings.set('ada', { ...binding, identificationId: 'id-2' });
    expect((await store.bindings.get('ada'))?.identificationId).toBe('id-2');
    expect(await store.bindings.get('bob')).toBeUndefined();
    await store.bindings.delete('ada');
    expect(await store.bindings.get('ada')).toBeUndefined();
  });

  it('compare-and-set: exactly one of two writers of the same transition wins', async () => {
    const store = await make();
    expect(await store.statusRecords.compareAndSet('id-1', undefined, record('IN_AUTOMATIC_REVIEW', 1))).toBe(
      true,
    );
    expect(await store.statusRecords.compareAndSet('id-1', undefined, record('IN_AUTOMATIC_REVIEW', 2))).toBe(
      false,
    );
    const both = await Promise.all([
      store.statusRecords.compareAndSet('id-1', 'IN_AUTOMATIC_REVIEW', record('APPROVED', 3)),
      store.statusRecords.compareAndSet('id-1', 'IN_AUTOMATIC_REVIEW', record('APPROVED', 4)),
    ]);
    expect(both.filter(Boolean)).toHaveLength(1);
    expect(await store.statusRecords.get('id-1')).toMatchObject({ status: 'APPROVED', accountId: 'ada' });
    expect(await store.statusRecords.compareAndSet('id-1', 'IN_MANUAL_REVIEW', record('REJECTED', 5))).toBe(
      false,
    );
    await store.statusRecords.delete('id-1');
    expect(await store.statusRecords.get('id-1')).toBeUndefined();
  });

  it('everything it stores expires: nothing past its retention is answered, and it counts as absent', async () => {
    const store = await make();
    const yearAgo = Date.now() - 366 * DAY_MS;
    await store.bindings.set('old', { ...binding, expiresAt: new Date(yearAgo).toISOString() });
    expect(await store.bindings.get('old')).toBeUndefined();
    // A pending record is kept 7 days after its session's end; one past that is gone.
    const stale = { ...record('IN_MANUAL_REVIEW', -8 * DAY_MS), expiresAt: new Date(yearAgo).toISOString() };
    await store.statusRecords.compareAndSet('id-old', undefined, stale);
    expect(await store.statusRecords.get('id-old')).toBeUndefined();
    expect(
      await store.statusRecords.compareAndSet('id-old', undefined, record('IN_AUTOMATIC_REVIEW', 0)),
    ).toBe(true);
  });
});

describe('what the stores keep, and for how long', () => {
  it('the retention: a binding its session’s end + 365 days, a record + 7 days pending or + 365 days approved', () => {
    const end = Date.parse(binding.expiresAt);
    expect(bindingExpiresAt(binding)).toBe(end + 365 * DAY_MS);
    expect(statusRecordExpiresAt(record('IN_MANUAL_REVIEW', 0))).toBe(end + 7 * DAY_MS);
    expect(statusRecordExpiresAt(record('APPROVED', 0))).toBe(end + 365 * DAY_MS);
    // A change after the session's end counts from the change.
    const late = record('REJECTED', 40 * DAY_MS);
    expect(statusRecordExpiresAt(late)).toBe(late.observedAt + 7 * DAY_MS);
    expect(statusRecordExpiresAt(late, { approvedMs: DAY_MS, pendingMs: DAY_MS })).toBe(
      late.observedAt + DAY_MS,
    );
  });

  it('Redis: every key has a time to live, under its own prefix', async () => {
    const prefix = `ttl${Math.random()}:`;
    const store = createRedisBindingStore({ url: redis.url, prefix, retention: { pendingMs: 2 * DAY_MS } });
    closers.push(() => store.close());
    await store.bindings.set('ada', binding);
    await store.statusRecords.compareAndSet('id-1', undefined, record('IN_AUTOMATIC_REVIEW', 0));
    const client = createClient({ url: redis.url });
    await client.connect();
    try {
      const account = await client.pExpireTime(`${prefix}account:ada`);
      const status = await client.pExpireTime(`${prefix}status:id-1`);
      expect(account).toBe(bindingExpiresAt(binding));
      expect(status).toBe(Date.parse(binding.expiresAt) + 2 * DAY_MS);
    } finally {
      await client.close();
    }
  });

  it('the memory store is bounded: beyond maxEntries the least recently used goes first', async () => {
    const store = createMemoryBindingStore({ maxEntries: 2 });
    await store.bindings.set('a', binding);
    await store.bindings.set('b', binding);
    await store.bindings.get('a');
    await store.bindings.set('c', binding);
    expect(
      [await store.bindings.get('a'), await store.bindings.get('b'), await store.bindings.get('c')].map(
        Boolean,
      ),
    ).toEqual([true, false, true]);
  });

  it('a retention out of bounds is refused when the store is created', () => {
    for (const retention of [{ approvedMs: 5 }, { pendingMs: -1 }, { keepForever: true }]) {
      expect(() => createMemoryBindingStore({ retention } as never)).toThrow(
        /INVALID_OPTIONS|invalid options/,
      );
      expect(() => createRedisBindingStore({ url: redis.url, retention } as never)).toThrow(
        /invalid options/,
      );
    }
  });
});

describe('the deprecated flat BindingStore, until 1.0', () => {
  it('the adapter calls each flat method on its store (`this` kept) and passes health through', async () => {
    const calls: string[] = [];
    class FlatStore implements BindingStore {
      readonly name = 'flat';
      get(accountId: string) {
        calls.push(`${this.name}.get ${accountId}`);
        return undefined;
      }
      set() {}
      delete() {}
      getStatus() {
        return undefined;
      }
      compareAndSetStatus(identificationId: string, expected: string | undefined) {
        calls.push(`${this.name}.compareAndSetStatus ${identificationId} ${expected}`);
        return true;
      }
      deleteStatus() {}
      getDecision() {
        return undefined;
      }
      putDecision(identificationId: string, _next: unknown, ttlMs: number) {
        calls.push(`${this.name}.putDecision ${identificationId} ${ttlMs}`);
        return false;
      }
      deleteDecision(identificationId: string) {
        calls.push(`${this.name}.deleteDecision ${identificationId}`);
      }
      health() {
        return this.name === 'flat';
      }
    }
    const store = toRecordStore(new FlatStore());
    expect(await store.bindings.get('ada')).toBeUndefined();
    expect(await store.statusRecords.compareAndSet('id-1', 'PENDING', record('APPROVED', 0))).toBe(true);
    expect(await store.decisions.put('id-1', { status: 'APPROVED', at: 1, source: 'read' }, 500)).toBe(false);
    await store.decisions.delete('id-1');
    expect(calls).toEqual([
      'flat.get ada',
      'flat.compareAndSetStatus id-1 PENDING',
      'flat.putDecision id-1 500',
      'flat.deleteDecision id-1',
    ]);
    expect(await store.health?.()).toBe(true);
    // A flat store without health() gives none.
    expect(adaptedFlatStore().health).toBeUndefined();
  });

  it('a flat method of the integrator’s own beside records takes precedence, as before; a record’s own too', async () => {
    const memory = createMemoryBindingStore();
    const decision = { status: 'APPROVED', at: 1, source: 'read' } as const;
    // A wrapper written for the flat shape: the shipped store spread, one flat method replaced.
    const wrapped = toRecordStore({ ...memory, getDecision: () => decision });
    expect(await wrapped.decisions.get('id-1')).toEqual(decision);
    await wrapped.bindings.set('ada', binding);
    expect(await memory.bindings.get('ada')).toEqual(binding);
    // The same written for records: the record's method replaced.
    const records = toRecordStore({ ...memory, decisions: { ...memory.decisions, get: () => decision } });
    expect(await records.decisions.get('id-2')).toEqual(decision);
    expect(await records.health?.()).toBe(true);
  });

  it('a RecordStore is taken as it is; the shipped stores answer the flat methods too', async () => {
    const memory = createMemoryBindingStore();
    expect(toRecordStore(memory)).toBe(memory);
    await memory.set('ada', binding);
    expect(await memory.bindings.get('ada')).toEqual(binding);
    await memory.decisions.put('id-1', { status: 'APPROVED', at: 1, source: 'read' }, 60_000);
    expect(await memory.getDecision('id-1')).toMatchObject({ status: 'APPROVED' });
    const redisStore = createRedisBindingStore({ url: redis.url, prefix: `flat${Math.random()}:` });
    closers.push(() => redisStore.close());
    expect(toRecordStore(redisStore)).toBe(redisStore);
    await redisStore.bindings.set('ada', binding);
    expect(await redisStore.get('ada')).toEqual(binding);
  });
});
