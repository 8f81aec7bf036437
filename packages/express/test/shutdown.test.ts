// kit.shutdown() for rolling deploys, over real HTTP on 127.0.0.1 against the real sandbox: readiness
// flips first, the instance serves on through the drain with `Connection: close`, and a long-poll
// open when it closes is answered (200, what the kit knows), never reset.
import { randomBytes } from 'node:crypto';
import { type Sandbox, startSandbox } from '@verify-kit/sandbox';
import { Browser, listen } from '@verify-kit/testkit';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { StatusResponseBody } from '../src/index.js';
import { startApp, type TestApp } from './support/app.js';

const API_KEY = `sk_test_${randomBytes(16).toString('hex')}`;
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: API_KEY, reviewDelayMs: 0 });
});
afterAll(async () => {
  await sandbox.close();
});

/** The app of the README's "Several instances" example: its readiness route is what the balancer checks. */
async function startInstance() {
  const listening = await listen();
  const app = await startApp(
    { baseUrl: sandbox.url, apiKey: API_KEY, pollIntervalMs: 60_000 },
    {
      listening,
      routes: (express, kit) => {
        express.get('/ready', async (_req, res) => {
          const health = await kit.health();
          res.status(health.ok ? 200 : 503).json(health);
        });
      },
    },
  );
  return { app, server: listening.server };
}

describe('kit.shutdown(): a rolling deploy shows people no error', () => {
  let app: TestApp;
  let server: Awaited<ReturnType<typeof startInstance>>['server'];
  beforeAll(async () => {
    ({ app, server } = await startInstance());
  });
  afterAll(async () => {
    await app.close();
  });

  test('not ready first, served with Connection: close through the drain, the open long-poll answered 200', async () => {
    const person = app.browser();
    expect((await person.post('/identity/session')).status).toBe(201);
    expect((await person.get('/ready')).status).toBe(200);
    const held = person.get<StatusResponseBody>('/identity/status?wait=25&since=awaiting_user');
    // Give the long-poll time to arrive and be held before the deploy's SIGTERM.
    await new Promise((resolve) => setTimeout(resolve, 200));

    const done = app.kit.shutdown({ server, drainMs: 1500 });
    expect(await app.kit.health()).toMatchObject({ ok: false, draining: true });
    const probe = await new Browser(app.url).get('/ready');
    expect(probe.status).toBe(503);
    expect(probe.headers.connection).toBe('close');

    // The balancer has not taken the instance out yet: a request still arrives, and is served.
    const during = await app.browser().get('/identity/status');
    expect(during.status).toBe(404); // this browser started nothing: the kit answers as usual
    expect(during.headers.connection).toBe('close');
    const same = await person.get<StatusResponseBody>('/identity/status');
    expect(same.status).toBe(200);
    expect(same.headers.connection).toBe('close');

    await done;
    const answered = await held;
    expect(answered.status).toBe(200);
    expect(answered.json.phase).toBe('awaiting_user');
    expect(answered.headers.connection).toBe('close');
    expect(server.listening).toBe(false);
    expect(app.kit.shutdown()).toBe(done); // a second SIGTERM waits for the same shutdown
  });
});

test('kit.shutdown() refuses options it does not know or cannot use, naming them', async () => {
  const { app } = await startInstance();
  try {
    expect(() => app.kit.shutdown({ drainMs: -1 })).toThrow(/drainMs must be 0 or more/);
    expect(() => app.kit.shutdown({ closeTimeoutMs: 1.5 })).toThrow(/closeTimeoutMs must be an integer/);
    expect(() => app.kit.shutdown({ server: {} as never })).toThrow(/server must be the HTTP server/);
    expect(() => app.kit.shutdown({ drain: 5 } as never)).toThrow(/drain is not an option of kit.shutdown/);
    expect(await app.kit.health()).toMatchObject({ draining: false });
  } finally {
    await app.close();
  }
});
