// Accounts on the integrator's own PostgreSQL (sqlStore over pg's Pool, `createVerifyKit({ store })`)
// over real HTTP: two instances of the Fetch door on one real PostgreSQL and the real sandbox, whose
// signed webhooks reach instance A only. A verification follows the account to another device and
// instance; a webhook's revocation and a forget refuse on every instance; an expired binding is
// verified again; one delivery reaching both instances is accepted once; an instance killed with
// SIGKILL right after a sign-up loses nothing; and PostgreSQL restarting during visits follows the
// Redis outage rules: 503 while the store does not answer, never a pass, the stored decisions served
// again once it does (within staleIfErrorMs while the service is down too).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateWebhookSecret } from '@verify-kit/client';
import { type Sandbox, startSandbox } from '@verify-kit/sandbox';
import { createSandboxControl } from '@verify-kit/sandbox/control';
import {
  approveInSandbox,
  Browser,
  capturingLogger,
  deliverWebhook,
  expectKeyNeverLeaked,
  freePort,
  type InstanceProcess,
  startInstanceProcess,
  startPostgresServer,
  until,
  verifyIn,
} from '@verify-kit/testkit';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../src/shared/log.js';
import { migrate, pgDriver } from '../src/sql.js';
import { type SqlInstance, type SqlInstanceOptions, startSqlInstance } from './support/sql-app.js';

const API_KEY = 'sk_test_sql_accounts_3c9a';
const WEBHOOK_SECRET = generateWebhookSecret();
const STALE_IF_ERROR_MS = 10 * 60_000;
const SCHEMA = 'accounts';

// Both in-process instances' clock: the outage test moves it past maxAgeMs, then staleIfErrorMs.
const clock = { advance: 0 };
/** The identification of each webhook either instance accepted. */
const accepted: string[] = [];
let postgres: Awaited<ReturnType<typeof startPostgresServer>>;
let admin: pg.Pool;
let sandbox: Sandbox;
let a: SqlInstance;
let b: SqlInstance;
let settings: SqlInstanceOptions;
let dataDir: string;
let killed: Promise<InstanceProcess>;

function countingAccepted(): Logger {
  const logger = capturingLogger();
  return {
    ...logger,
    debug(message, meta) {
      logger.debug?.(message, meta);
      if (message === 'webhook accepted')
        accepted.push(String((meta as { identificationId?: unknown })?.identificationId));
    },
  };
}

beforeAll(async () => {
  // The data in a directory of the test's: PostgreSQL restarts on it in the last test.
  dataDir = mkdtempSync(path.join(tmpdir(), 'verify-kit-sql-accounts-'));
  postgres = await startPostgresServer({ dataDir });
  admin = new pg.Pool({ connectionString: postgres.url, max: 2, options: `-c search_path=${SCHEMA}` });
  admin.on('error', () => {});
  await admin.query(`CREATE SCHEMA ${SCHEMA}`);
  await migrate(pgDriver(admin));
  const port = await freePort();
  sandbox = await startSandbox({
    apiKey: API_KEY,
    reviewDelayMs: 0,
    webhookUrl: `http://127.0.0.1:${port}/identity/webhook`,
    webhookSecret: WEBHOOK_SECRET,
  });
  settings = {
    postgresUrl: postgres.url,
    schema: SCHEMA,
    baseUrl: sandbox.url,
    apiKey: API_KEY,
    webhookSecret: WEBHOOK_SECRET,
  };
  const inProcess = {
    now: () => Date.now() + clock.advance,
    maxAgeMs: 60_000,
    staleIfErrorMs: STALE_IF_ERROR_MS,
  };
  a = await startSqlInstance({ ...settings, ...inProcess, port, logger: countingAccepted() });
  b = await startSqlInstance({ ...settings, ...inProcess, logger: countingAccepted() });
  // Started now, used by the SIGKILL test: its start (tsx compiling the sources) overlaps the tests before.
  killed = startInstanceProcess(fileURLToPath(new URL('./fixtures/sql-instance.ts', import.meta.url)), {
    SQL_INSTANCE: JSON.stringify(settings),
  });
  killed.catch(() => undefined); // awaited (and thrown) by the test
});

afterAll(async () => {
  await (await killed?.catch(() => undefined))?.stop();
  await b?.close();
  await a?.close();
  await admin?.end();
  await sandbox?.close();
  await postgres?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  expectKeyNeverLeaked(API_KEY);
});

/** A new device (its own cookies) signed in as `user` on `instance`. */
async function signedIn(instance: { url: string }, user: string): Promise<Browser> {
  const device = new Browser(instance.url);
  await device.post(`/login?user=${encodeURIComponent(user)}`);
  return device;
}

const gated = async (...devices: Browser[]) =>
  Promise.all(devices.map(async (device) => (await device.get('/api/data')).status));

describe('an account’s verification in PostgreSQL, on two instances', () => {
  it('follows the account to another device on another instance', async () => {
    const onA = await signedIn(a, 'ada');
    const identificationId = await verifyIn(sandbox, onA);
    const onB = await signedIn(b, 'ada');
    expect(await gated(onA, onB)).toEqual([200, 200]);
    const status = await onB.get<{ status: string; phase: string }>('/identity/status');
    expect([status.status, status.json.status, status.json.phase]).toEqual([200, 'APPROVED', 'approved']);
    const { rows } = await admin.query('SELECT binding FROM verify_kit_bindings WHERE id = $1', ['ada']);
    expect(JSON.parse(rows[0].binding)).toMatchObject({ identificationId });
  });

  it('a revocation by webhook, received by A alone, refuses on both at their next request', async () => {
    const onA = await signedIn(a, 'grace');
    const identificationId = await verifyIn(sandbox, onA);
    const onB = await signedIn(b, 'grace');
    expect(await gated(onA, onB)).toEqual([200, 200]);
    await createSandboxControl(sandbox).setStatus(identificationId, 'REJECTED');
    await until(() => accepted.includes(identificationId), 'A accepted the rejection’s webhook');
    await until(async () => (await gated(onA))[0] === 403, 'A refuses');
    expect(await gated(onB, onA)).toEqual([403, 403]);
  });

  it('forget on one instance refuses on every instance', async () => {
    const onA = await signedIn(a, 'linus');
    await verifyIn(sandbox, onA);
    const onB = await signedIn(b, 'linus');
    expect(await gated(onA, onB)).toEqual([200, 200]);
    expect((await onA.post('/forget')).status).toBe(200);
    expect(await gated(onB, onA)).toEqual([403, 403]);
    expect((await admin.query('SELECT 1 FROM verify_kit_bindings WHERE id = $1', ['linus'])).rowCount).toBe(
      0,
    );
  });

  it('a binding past its retention is never answered: the account verifies again, and prune deletes it', async () => {
    const device = await signedIn(a, 'barbara');
    const first = await verifyIn(sandbox, device);
    // Its time is over (as a year after the session would be): the row stays until a prune.
    await admin.query('UPDATE verify_kit_bindings SET expires_at = 0 WHERE id = $1', ['barbara']);
    const elsewhere = await signedIn(b, 'barbara');
    const refused = await elsewhere.get<{ status: string | null }>('/api/data');
    expect([refused.status, refused.json.status]).toEqual([403, null]);
    expect((await elsewhere.get('/identity/status')).status).toBe(404);
    const second = await verifyIn(sandbox, elsewhere);
    expect(second).not.toBe(first);
    expect(await gated(elsewhere, device)).toEqual([200, 200]);
  });

  it('one delivery reaching both instances at once is accepted once (the webhook ids in PostgreSQL)', async () => {
    // An identification of its own: no other delivery of the run names it.
    const identificationId = crypto.randomUUID();
    const delivery = { secret: WEBHOOK_SECRET, identificationId, id: `msg_${crypto.randomUUID()}` };
    const answers = await Promise.all(
      [a, b, a, b].map((instance) => deliverWebhook(new Browser(instance.url), delivery)),
    );
    expect(answers.map((answer) => answer.status)).toEqual([204, 204, 204, 204]);
    expect(accepted.filter((id) => id === identificationId)).toHaveLength(1);
  });
});

describe('a kit on a database whose tables were never made', () => {
  it('answers 503 at the first sign-up, never a wrong query, and its log names migrate', async () => {
    await admin.query('CREATE SCHEMA unmigrated');
    const lines: string[] = [];
    const instance = await startSqlInstance({
      ...settings,
      schema: 'unmigrated',
      logger: capturingLogger(lines),
    });
    try {
      const device = await signedIn(instance, 'grace-hopper');
      const signUp = await device.post<{ error: { code: string } }>('/identity/session');
      expect([signUp.status, signUp.json.error.code]).toEqual([503, 'BINDING_STORE_UNAVAILABLE']);
      expect(lines.join('\n')).toMatch(
        /verify-kit's tables are not in this database: run `await migrate\(driver\)`/,
      );
      expect(await instance.kit.health()).toMatchObject({ ok: false, store: 'down' });
    } finally {
      await instance.close();
    }
  });
});

describe('an instance killed with SIGKILL', () => {
  it('loses no binding: the sign-up it answered is the account’s on the other instance', {
    timeout: 90_000,
  }, async () => {
    const instance = await killed;
    try {
      const device = await signedIn(instance, 'katherine');
      const started = await device.post<{ sessionCode: string }>('/identity/session');
      expect(started.status).toBe(201);
    } finally {
      // The crash: no close, no drain, right after the answer.
      instance.kill();
    }
    const onB = await signedIn(b, 'katherine');
    const status = await onB.get<{ status: string }>('/identity/status');
    expect(status.status).toBe(200);
    const sessionCode = (await onB.post<{ sessionCode: string }>('/identity/session')).json.sessionCode;
    await approveInSandbox(sandbox, sessionCode);
    expect(await gated(onB)).toEqual([200]);
  });
});

describe('PostgreSQL restarting during visits (the last tests: the service stops at the end)', () => {
  it('503 while it is down, never a pass; served again once it is back; then, the service down, within staleIfErrorMs only', async () => {
    const people = await Promise.all(
      ['hedy', 'alan', 'ada-2'].map(async (user) => {
        const onA = await signedIn(a, user);
        await verifyIn(sandbox, onA);
        return [onA, await signedIn(b, user)] as const;
      }),
    );
    const devices = people.flat();
    expect(await gated(...devices)).toEqual(Array(6).fill(200));
    const newcomer = await signedIn(b, 'margaret');

    const { port } = postgres;
    await postgres.stop();
    const down = await Promise.all(
      devices.map((device) => device.get<{ error: { code: string } }>('/api/data')),
    );
    expect(down.map((res) => [res.status, res.json.error.code])).toEqual(
      Array(6).fill([503, 'BINDING_STORE_UNAVAILABLE']),
    );
    const signUp = await newcomer.post<{ error: { code: string } }>('/identity/session');
    expect([signUp.status, signUp.json.error.code]).toEqual([503, 'BINDING_STORE_UNAVAILABLE']);
    expect(await b.kit.health()).toMatchObject({ ok: false, store: 'down' });

    postgres = await startPostgresServer({ port, dataDir });
    expect(await gated(...devices)).toEqual(Array(6).fill(200));
    expect(await b.kit.health()).toMatchObject({ ok: true, store: 'ok' });

    // The service stops: inside the visits, the stored decisions (in PostgreSQL) keep serving past
    // maxAgeMs, then every gated request fails closed past staleIfErrorMs.
    await sandbox.close();
    clock.advance += 2 * 60_000;
    expect(await gated(...devices)).toEqual(Array(6).fill(200));
    clock.advance += STALE_IF_ERROR_MS;
    expect(await gated(...devices)).toEqual(Array(6).fill(503));
  });
});
