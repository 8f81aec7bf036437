// Every approval event is told, once, whatever happens while it is told (issue 40, finding 7): two
// instances (child processes) on one real redis-server and the real sandbox; an instance killed with
// SIGKILL right after its compare-and-set recorded APPROVED, or inside the product's handler, and
// Redis stopped right after that write. Each event is a JSON line in the instance's own file.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateWebhookSecret } from '@verify-kit/client';
import { DELIVERY_LEASE_MS } from '@verify-kit/core/internal/status/event-delivery';
import { type Sandbox, startSandbox } from '@verify-kit/sandbox';
import {
  approveInSandbox,
  Browser,
  expectKeyNeverLeaked,
  type InstanceProcess,
  type RedisServer,
  startFaultProxy,
  startInstanceProcess,
  startRedisServer,
  until,
} from '@verify-kit/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryBindingStore, type StatusChangeEvent } from '../src/index.js';
import { signedInUser, startApp } from './support/app.js';
import type { EventInstanceOptions } from './support/event-instance.js';

const API_KEY = 'sk_test_approval_delivery_5e1f';
const ENTRY = fileURLToPath(new URL('./support/event-instance.ts', import.meta.url));

let sandbox: Sandbox;
let redis: RedisServer;
let dir: string;
const started: InstanceProcess[] = [];

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'verify-kit-delivery-'));
  mkdirSync(path.join(dir, 'redis'));
  // Persistent (append-only, each write synced): stopped and started again, it keeps every record.
  [sandbox, redis] = await Promise.all([
    startSandbox({ apiKey: API_KEY, reviewDelayMs: 0 }),
    startRedisServer({ dataDir: path.join(dir, 'redis') }),
  ]);
});
afterEach(async () => {
  await Promise.all(started.splice(0).map((instance) => instance.stop()));
});
afterAll(async () => {
  await Promise.all([sandbox?.close(), redis?.stop()]);
  rmSync(dir, { recursive: true, force: true });
  expectKeyNeverLeaked(API_KEY);
});

type Recorded = StatusChangeEvent & { id?: string; pid: number };

async function instance(
  name: string,
  fault?: EventInstanceOptions['fault'],
  more: Partial<EventInstanceOptions> = {},
): Promise<InstanceProcess> {
  const options: EventInstanceOptions = {
    baseUrl: sandbox.url,
    apiKey: API_KEY,
    redisUrl: redis.url,
    eventsFile: path.join(dir, `${name}.jsonl`),
    ...(fault === undefined ? {} : { fault }),
    ...more,
  };
  const child = await startInstanceProcess(ENTRY, { EVENT_INSTANCE: JSON.stringify(options) });
  started.push(child);
  return child;
}

/** The APPROVED events instance `name` recorded for the identification. */
function approvals(name: string, identificationId: string): Recorded[] {
  const file = path.join(dir, `${name}.jsonl`);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Recorded)
    .filter((event) => event.identificationId === identificationId && event.status === 'APPROVED');
}

/** `account` starts a verification on `on` and the service approves it; nobody has read it yet. */
async function approvedAt(on: InstanceProcess, account: string, service: Sandbox = sandbox): Promise<string> {
  const created = await new Browser(on.url).post<{ sessionCode: string }>(
    '/identity/session',
    {},
    { 'x-account': account },
  );
  expect(created.status, `${created.text}\n${on.output()}`).toBe(201);
  return approveInSandbox({ url: service.url, apiKey: API_KEY }, created.json.sessionCode);
}

/** The account's status, read on `on`: an upstream read, as every request that reads it is. */
async function read(on: InstanceProcess, account: string) {
  const answer = await new Browser(on.url).get<{ phase: string }>('/identity/status', {
    'x-account': account,
  });
  expect(answer.status).toBe(200);
  return answer.json.phase;
}

describe('an approval is told once, whatever stops the instance telling it', { timeout: 120_000 }, () => {
  it('killed (SIGKILL) right after its write recorded APPROVED: the next read on another instance tells it', async () => {
    const [a, b] = await Promise.all([instance('a1', 'freeze-after-approval'), instance('b1')]);
    const identificationId = await approvedAt(a, 'ada');
    expect(await read(a, 'ada')).toBe('approved');
    await until(
      () => a.output().includes(`fault: freeze-after-approval ${identificationId.toLowerCase()}`),
      'A recorded APPROVED',
    );
    a.kill();
    // The person's next request lands on B.
    expect(await read(b, 'ada')).toBe('approved');
    await until(() => approvals('b1', identificationId).length > 0, 'B told the approval');
    expect(await read(b, 'ada')).toBe('approved');
    expect(approvals('a1', identificationId)).toEqual([]);
    expect(approvals('b1', identificationId)).toHaveLength(1);
    expect(approvals('b1', identificationId)[0]).toMatchObject({
      accountId: 'ada',
      phase: 'approved',
      id: expect.any(String),
    });
  });

  it('killed inside the handler: another instance that read it tells it, same id, once the claim has run out', async () => {
    const [a, b] = await Promise.all([instance('a2', 'hang-in-handler'), instance('b2')]);
    const identificationId = await approvedAt(a, 'grace');
    expect(await read(a, 'grace')).toBe('approved');
    const handling = new RegExp(`fault: hang-in-handler ${identificationId} (\\S+)`);
    await until(() => handling.test(a.output()), 'A called the handler');
    const calledAt = Date.now();
    const eventId = handling.exec(a.output())?.[1];
    a.kill();
    // B reads the approval while A's claim still holds; nothing reads it afterwards.
    expect(await read(b, 'grace')).toBe('approved');
    expect(approvals('b2', identificationId)).toEqual([]);
    await until(() => Date.now() > calledAt + DELIVERY_LEASE_MS, 'the claim ran out');
    await until(() => approvals('b2', identificationId).length > 0, 'B told the approval');
    expect(approvals('b2', identificationId)).toHaveLength(1);
    expect(approvals('b2', identificationId)[0]).toMatchObject({ accountId: 'grace', id: eventId });
  });

  it('Redis stopped right after the write recorded APPROVED: told once Redis is back', async () => {
    const a = await instance('a3', 'pause-after-approval');
    const identificationId = await approvedAt(a, 'linus');
    expect(await read(a, 'linus')).toBe('approved');
    await until(
      () => a.output().includes(`fault: pause-after-approval ${identificationId.toLowerCase()}`),
      'A recorded APPROVED',
    );
    const { port } = redis;
    await redis.stop();
    expect((await new Browser(a.url).post('/fault/continue')).status).toBe(204);
    // The store call after the write fails (Redis is away longer than the kit's 2 s wait for it).
    await until(() => a.output().includes('onStatusChange'), 'A met the outage');
    redis = await startRedisServer({ port, dataDir: path.join(dir, 'redis') });
    await until(() => approvals('a3', identificationId).length > 0, 'A told the approval');
    expect(approvals('a3', identificationId)).toHaveLength(1);
  });
});

describe('an approval only a webhook brought, nobody reading it after', { timeout: 120_000 }, () => {
  it('the instance killed telling it, before its 204: the service’s retry reaches another instance, which tells it (same id)', async () => {
    const secret = generateWebhookSecret();
    // The load balancer in front of the instances: A, then B once A is gone.
    const balancer = await startFaultProxy();
    const service = await startSandbox({
      apiKey: API_KEY,
      reviewDelayMs: 0,
      webhookUrl: `${balancer.url}/identity/webhook`,
      webhookSecret: secret,
      webhookRetryBaseMs: 200,
    });
    try {
      const behind = { baseUrl: service.url, webhookSecret: secret };
      const [a, b] = await Promise.all([
        instance('a4', 'hang-in-handler', behind),
        instance('b4', undefined, behind),
      ]);
      balancer.setTarget(a.url);
      const identificationId = await approvedAt(a, 'hedy', service);
      // The approval's webhook: A reads it and calls the handler, which never returns; no 204 yet.
      const handling = new RegExp(`fault: hang-in-handler ${identificationId} (\\S+)`);
      await until(() => handling.test(a.output()), 'A called the handler for the webhook');
      const calledAt = Date.now();
      const eventId = handling.exec(a.output())?.[1];
      balancer.setTarget(b.url);
      a.kill();
      // B takes the retry (the delivery known in Redis) and reads; it tells once A's claim runs out.
      await until(() => Date.now() > calledAt + DELIVERY_LEASE_MS, 'the claim ran out');
      await until(() => approvals('b4', identificationId).length > 0, 'B told the approval');
      expect(approvals('b4', identificationId)).toHaveLength(1);
      expect(approvals('b4', identificationId)[0]).toMatchObject({ accountId: 'hedy', id: eventId });
      expect(approvals('a4', identificationId)).toEqual([]);
    } finally {
      await Promise.all([service.close(), balancer.close()]);
    }
  });
});

describe('a handler that runs longer than a claim lasts', () => {
  it('is not told again by another instance meanwhile: the claim is renewed while it runs', async () => {
    // Two instances in this process on one store (their memory store, shared), the sandbox's.
    const store = createMemoryBindingStore();
    const told: { instance: string; event: StatusChangeEvent }[] = [];
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const startOne = (instance: string) =>
      startApp(
        {
          baseUrl: sandbox.url,
          apiKey: API_KEY,
          accountOf: signedInUser,
          bindingStore: store,
          async onStatusChange(event) {
            if (event.status !== 'APPROVED') return;
            told.push({ instance, event });
            if (instance === 'a') await released;
          },
        },
        {},
      );
    const [a, b] = await Promise.all([startOne('a'), startOne('b')]);
    try {
      const onA = await a.signedIn('ada');
      const onB = await b.signedIn('ada');
      const created = await onA.post<{ sessionCode: string }>('/identity/session');
      await approveInSandbox({ url: sandbox.url, apiKey: API_KEY }, created.json.sessionCode);
      expect((await onA.get<{ phase: string }>('/identity/status')).json.phase).toBe('approved');
      await until(() => told.length > 0, 'A called the handler');
      const calledAt = Date.now();
      // B reads it while A's handler runs, and looks again once A's first claim would have run out.
      expect((await onB.get<{ phase: string }>('/identity/status')).json.phase).toBe('approved');
      await until(() => Date.now() > calledAt + DELIVERY_LEASE_MS + 1000, 'the first claim ran out');
      release();
      expect(told.map((t) => t.instance)).toEqual(['a']);
    } finally {
      release();
      await Promise.all([a.close(), b.close()]);
    }
  });
});
