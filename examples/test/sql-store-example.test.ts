import { type Sandbox, startSandbox } from '@verify-kit/sandbox';
import { startPostgresServer, until } from '@verify-kit/testkit';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { submitDocument } from './support/phone.js';

// The SQL store's examples (core's README, "Your own database"; the site's "Your SQL database")
// against a real PostgreSQL and sandbox: the kit on its tables follows an account to another
// device, prune runs; and the store contract file an integrator keeps beside their tests, run here
// as they would run it, on this PostgreSQL.
const API_KEY = 'sk_test_sql_example_5b1e';
const postgres = await startPostgresServer();
// Registered first, so it runs last: after the contract's and the example's pools have ended.
afterAll(() => postgres.stop());
process.env.TEST_DATABASE_URL = postgres.url;
await import('../core/store-contract.js');

let sandbox: Sandbox;
let example: typeof import('../core/sql-store.js');

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: API_KEY, reviewDelayMs: 0 });
  process.env.IDV_BASE_URL = sandbox.url;
  process.env.IDV_API_KEY = API_KEY;
  process.env.VERIFY_KIT_SECRET = 'a-test-secret-of-at-least-32-characters';
  process.env.DATABASE_URL = postgres.url;
  example = await import('../core/sql-store.js');
});

afterAll(async () => {
  await example?.kit.close();
  await example?.pool.end();
  await sandbox?.close();
});

const call = (path: string, user: string, init: RequestInit = {}) =>
  example.kit.handle(
    new Request(`http://app.localhost${path}`, {
      ...init,
      headers: { ...init.headers, cookie: `user=${user}` },
    }),
  );
const gate = async (user: string) =>
  (
    await example.kit.gate(
      new Request('http://app.localhost/account', { headers: { cookie: `user=${user}` } }),
    )
  ).kind;

test('an account verified on one device is served on another, from PostgreSQL; prune runs', async () => {
  expect(await gate('ada')).toBe('refused');
  const created = await call('/identity/session', 'ada', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  expect(created.status).toBe(201);
  const { sessionCode } = (await created.json()) as { sessionCode: string };
  await submitDocument(sandbox, sessionCode);
  await until(async () => {
    const status = await call('/identity/status', 'ada');
    return ((await status.json()) as { phase: string }).phase === 'approved';
  }, 'the approval');
  // Another device: nothing but the account (the cookie of its sign-in).
  expect(await gate('ada')).toBe('granted');
  const { rows } = await example.pool.query('SELECT id FROM verify_kit_bindings WHERE id = $1', ['ada']);
  expect(rows).toEqual([{ id: 'ada' }]);
  expect(await example.store.prune()).toEqual({
    bindings: expect.any(Number),
    statusRecords: expect.any(Number),
    decisions: expect.any(Number),
    webhookIds: expect.any(Number),
  });
});
