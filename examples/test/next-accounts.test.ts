import { type Sandbox, startSandbox } from '@verify-kit/sandbox';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { submitDocument, waitForStatus } from '../../packages/express/test/support/sandbox.js';

// The Next.js README's optional extras (examples/next/extras/accounts.ts): accountOf from the app's
// own sign-in, and the client address from Vercel's header, run against the sandbox as Next.js
// calls the route handlers: a Request in, a Response out.
let sandbox: Sandbox;
let extras: typeof import('../next/extras/accounts.js');

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, reviewDelayMs: 0 });
  vi.stubEnv('IDV_BASE_URL', sandbox.url);
  vi.stubEnv('IDV_API_KEY', sandbox.apiKey);
  vi.stubEnv('VERIFY_KIT_SECRET', 'a-test-secret-of-at-least-32-characters!');
  extras = await import('../next/extras/accounts.js');
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await extras?.kit.close();
  await sandbox?.close();
});

/** A request of the signed-in `session` (no other cookie: a new browser each time), from `ip`. */
const signedIn = (path: string, session: string, ip: string, method = 'GET') =>
  new Request(`http://shop.test${path}`, {
    method,
    headers: {
      cookie: `session=${session}`,
      'x-real-ip': ip,
      'sec-fetch-site': 'same-origin',
      ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
    },
    ...(method === 'POST' ? { body: '{}' } : {}),
  });

test("the verification belongs to the signed-in account: another browser of the same person finds it, another person doesn't", async () => {
  const { kit, sessions } = extras;
  sessions.set('s-laptop', { userId: 'ada' });
  sessions.set('s-phone', { userId: 'ada' });
  sessions.set('s-bob', { userId: 'bob' });
  const created = await kit.handlers.POST(signedIn('/identity/session', 's-laptop', '198.51.100.1', 'POST'));
  expect(created.status).toBe(201);
  const { sessionCode } = (await created.json()) as { sessionCode: string };
  const { identificationId } = await submitDocument(sandbox, sessionCode);
  await waitForStatus(sandbox, identificationId, 'APPROVED');

  const phone = await kit.handlers.GET(signedIn('/identity/status', 's-phone', '198.51.100.2'));
  expect(await phone.json()).toMatchObject({ phase: 'approved' });
  const gated = await kit.gate(signedIn('/account', 's-phone', '198.51.100.2'));
  expect(gated.kind).toBe('granted');
  const bob = await kit.handlers.GET(signedIn('/identity/status', 's-bob', '198.51.100.3'));
  expect(bob.status).toBe(404);
});

test('the limits count per address from x-real-ip: one address runs out, another still creates', async () => {
  const { kit, sessions } = extras;
  sessions.set('s-many', { userId: 'many' });
  const statuses: number[] = [];
  for (let i = 0; i < 70; i++) {
    sessions.set(`s-${i}`, { userId: `user-${i}` });
    const answer = await kit.handlers.POST(signedIn('/identity/session', `s-${i}`, '203.0.113.9', 'POST'));
    statuses.push(answer.status);
    if (answer.status === 429) break;
  }
  expect(statuses.at(-1)).toBe(429);
  const elsewhere = await kit.handlers.POST(signedIn('/identity/session', 's-many', '203.0.113.10', 'POST'));
  expect(elsewhere.status).toBe(201);
});
