// Session fixation, performed over real HTTP as an attacker would (issue: "three ways to an approved
// session that is not yours"). The attacker holds its own cookies and whatever session id it managed
// to plant or learn; it never holds the victim's binding secret (an HttpOnly cookie set only on the
// response that created the victim's verification).
import { type Sandbox, startSandbox } from '@verify-kit/sandbox';
import { Browser, startFakeUpstream } from '@verify-kit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionResponseBody } from '../src/index.js';
import { startApp, type TestApp } from './support/app.js';
import { submitDocument, waitForStatus } from './support/sandbox.js';

const API_KEY = 'sk_test_fixation_6c1d9e';
const SESSION_COOKIE = 'connect.sid';

let sandbox: Sandbox;
let app: TestApp;

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: API_KEY, reviewDelayMs: 0 });
  app = await startApp({ baseUrl: sandbox.url, apiKey: API_KEY });
});

afterAll(async () => {
  await app?.close();
  await sandbox?.close();
});

/** A victim's browser into which the attacker planted its own session cookie (and nothing else). */
function plantedBrowser(attacker: Browser): Browser {
  const victim = new Browser(app.url);
  victim.cookies.set(SESSION_COOKIE, attacker.cookies.get(SESSION_COOKIE)!);
  return victim;
}

async function approve(sessionCode: string): Promise<void> {
  const { identificationId } = await submitDocument(sandbox, sessionCode, 'approve');
  await waitForStatus(sandbox, identificationId, 'APPROVED');
}

/** The attacker tries every way in after the victim's approval: a long-poll, the gate, a reuse. */
async function attackerGetsNothing(attacker: Browser, victimCode: string): Promise<void> {
  const poll = await attacker.get<{ phase?: string }>('/identity/status?wait=1&since=awaiting_user');
  expect(poll.json.phase).not.toBe('approved');
  expect((await attacker.get('/api/data')).status).toBe(403);
  const reuse = await attacker.post<SessionResponseBody>('/identity/session');
  expect(reuse.json.sessionCode).not.toBe(victimCode);
  expect((await attacker.get('/api/data')).status).toBe(403);
}

describe('session fixation: an attacker rides on the victim’s approval', () => {
  it('1. a planted cookie carrying the attacker’s verification is not reused for the victim', async () => {
    const attacker = app.browser();
    const own = await attacker.post<SessionResponseBody>('/identity/session');
    expect(own.status).toBe(201);
    const victim = plantedBrowser(attacker);

    const started = await victim.post<SessionResponseBody>('/identity/session');
    expect(started.status).toBe(201);
    expect(started.json.sessionCode).not.toBe(own.json.sessionCode);
    expect(victim.cookies.get(SESSION_COOKIE)).not.toBe(attacker.cookies.get(SESSION_COOKIE));

    await approve(started.json.sessionCode);
    expect((await victim.get('/api/data')).status).toBe(200);
    await attackerGetsNothing(attacker, started.json.sessionCode);
  });

  it('2. a planted pre-creation id never joins the victim’s creation, in flight or just settled', async () => {
    const fake = await startFakeUpstream();
    const slow = await startApp({ baseUrl: fake.url, apiKey: API_KEY });
    try {
      const attacker = slow.browser();
      await attacker.post('/login?user=attacker');
      const victim = new Browser(slow.url);
      victim.cookies.set(SESSION_COOKIE, attacker.cookies.get(SESSION_COOKIE)!);

      let release!: () => void;
      fake.holdCreate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const victimStart = victim.post<SessionResponseBody>('/identity/session');
      while (fake.created.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      const duringFlight = attacker.post<SessionResponseBody>('/identity/session');
      await new Promise((resolve) => setTimeout(resolve, 50));
      release();
      fake.holdCreate = undefined;
      const [started, joined] = await Promise.all([victimStart, duringFlight]);
      expect(started.status).toBe(201);
      expect(joined.status).not.toBe(201);
      expect(joined.headers['set-cookie']).toBeUndefined();

      const afterwards = await attacker.post<SessionResponseBody>('/identity/session');
      expect(afterwards.status).toBe(201);
      expect(afterwards.json.deepLink).not.toBe(started.json.deepLink);
      expect(attacker.cookies.get(SESSION_COOKIE)).not.toBe(victim.cookies.get(SESSION_COOKIE));

      const identificationId = [...fake.statuses.keys()][0]!;
      fake.statuses.set(identificationId, 'APPROVED');
      expect((await victim.get('/api/data')).status).toBe(200);
      expect((await attacker.get('/api/data')).status).toBe(403);
    } finally {
      await slow.close();
      await fake.close();
    }
  });

  it('3. whoever holds the victim’s pre-approval session id and long-polls at the approval gets nothing', async () => {
    const victim = app.browser();
    const started = await victim.post<SessionResponseBody>('/identity/session');
    expect(started.status).toBe(201);
    const attacker = new Browser(app.url);
    attacker.cookies.set(SESSION_COOKIE, victim.cookies.get(SESSION_COOKIE)!);

    const longPoll = attacker.get<{ phase?: string }>('/identity/status?wait=5&since=awaiting_user');
    await new Promise((resolve) => setTimeout(resolve, 100));
    await approve(started.json.sessionCode);
    const answer = await longPoll;
    expect(answer.json.phase).toBeUndefined();
    expect(answer.headers['set-cookie']).toBeUndefined();
    expect((await attacker.get('/api/data')).status).toBe(403);
    expect((await victim.get('/api/data')).status).toBe(200);
    expect((await attacker.get('/api/data')).status).toBe(403);
  });
});
