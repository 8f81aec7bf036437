// Every BindingStore the README offers obeys the same contract: the memory store, the Redis store
// (a real redis-server) and the README's SQL adapter (run on SQLite through sql.js).
import { readFileSync } from 'node:fs';
import { type RedisServer, startRedisServer } from '@verify-kit/testkit';
import initSqlJs from 'sql.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BindingStore,
  createMemoryBindingStore,
  type StatusRecord,
  type VerificationBinding,
} from '../src/index.js';
import { createRedisBindingStore, type RedisBindingStore } from '../src/redis.js';
import { createSqlBindingStore } from './examples/sql-binding-store.js';

const binding: VerificationBinding = {
  verificationSessionId: 'vs-1',
  identificationId: 'id-1',
  deepLink: 'idv://app-url/https://idv.example/verification-session/vs-1',
  sessionCode: 'ABCD2345',
  sessionPageLink: 'https://idv.example/public/verification-sessions/vs-1',
  expiresAt: '2026-11-23T12:00:00.000Z',
};
const record = (status: string, observedAt: number): StatusRecord => ({
  status,
  observedAt,
  accountId: 'ada',
  verificationSessionId: 'vs-1',
  expiresAt: binding.expiresAt,
});

async function sqliteStore(): Promise<BindingStore> {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  db.run('CREATE TABLE verify_kit (key TEXT PRIMARY KEY, value TEXT NOT NULL, status TEXT)');
  return createSqlBindingStore({
    async get(sql, params) {
      const statement = db.prepare(sql);
      statement.bind(params as never[]);
      const row = statement.step() ? (statement.getAsObject() as { value: string }) : undefined;
      statement.free();
      return row;
    },
    async run(sql, params) {
      db.run(sql, params as never[]);
      return db.getRowsModified();
    },
  });
}

let redis: RedisServer;
const closers: (() => Promise<void>)[] = [];
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  for (const close of closers) await close();
  await redis?.stop();
});

const stores: [string, () => Promise<BindingStore>][] = [
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
  ['the README’s SQL adapter (SQLite)', sqliteStore],
];

describe.each(stores)('BindingStore contract: %s', (_name, make) => {
  it('keeps, replaces and deletes an account’s binding', async () => {
    const store = await make();
    expect(await store.get('ada')).toBeUndefined();
    await store.set('ada', binding);
    expect(await store.get('ada')).toEqual(binding);
    await store.set('ada', { ...binding, identificationId: 'id-2' });
    expect((await store.get('ada'))?.identificationId).toBe('id-2');
    expect(await store.get('bob')).toBeUndefined();
    await store.delete('ada');
    expect(await store.get('ada')).toBeUndefined();
  });

  it('compare-and-set: exactly one of two writers of the same transition wins', async () => {
    const store = await make();
    expect(await store.compareAndSetStatus('id-1', undefined, record('IN_AUTOMATIC_REVIEW', 1))).toBe(true);
    expect(await store.compareAndSetStatus('id-1', undefined, record('IN_AUTOMATIC_REVIEW', 2))).toBe(false);
    const both = await Promise.all([
      store.compareAndSetStatus('id-1', 'IN_AUTOMATIC_REVIEW', record('APPROVED', 3)),
      store.compareAndSetStatus('id-1', 'IN_AUTOMATIC_REVIEW', record('APPROVED', 4)),
    ]);
    expect(both.filter(Boolean)).toHaveLength(1);
    expect(await store.getStatus('id-1')).toMatchObject({ status: 'APPROVED', accountId: 'ada' });
    expect(await store.compareAndSetStatus('id-1', 'IN_MANUAL_REVIEW', record('REJECTED', 5))).toBe(false);
    await store.deleteStatus('id-1');
    expect(await store.getStatus('id-1')).toBeUndefined();
  });
});

it('the README shows the SQL adapter exactly as it is tested here', () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const example = readFileSync(new URL('./examples/sql-binding-store.ts', import.meta.url), 'utf8');
  expect(readme).toContain(`\`\`\`ts\n${example}\`\`\``);
});
