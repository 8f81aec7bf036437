// Signing out in one tab while another tab's POST /session is under way: the request loaded the
// signed-in session before the sign-out ended it. Whatever the kit writes when that request ends
// must not bring the session back, neither by moving it to a new id (an anonymous verification) nor
// by express-session saving it under its old id (an account's: the kit noted the browser in it).
// Over real HTTP, the upstream a fake that holds the creation until the sign-out is done.
import { Browser, type FakeUpstream, startFakeUpstream } from '@verify-kit/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionResponseBody } from '../src/index.js';
import { type AppOptions, signedInUser, startApp, type TestApp } from './support/app.js';

const API_KEY = 'sk_test_signout_race_4b7e';
const SESSION_COOKIE = 'connect.sid';

let fake: FakeUpstream;
let app: TestApp | undefined;

beforeEach(async () => {
  fake = await startFakeUpstream();
});

afterEach(async () => {
  await app?.close();
  await fake.close();
});

/** Who a browser holding only `cookie` is signed in as. */
async function userHolding(cookie: string): Promise<string | null> {
  const holder = new Browser(app!.url);
  holder.cookies.set(SESSION_COOKIE, cookie);
  return (await holder.get<{ user: string | null }>('/whoami')).json.user;
}

/** Grace starts a verification; while the service creates it, another tab of hers signs out. */
async function signOutWhileCreating(options: AppOptions = {}) {
  app = await startApp({ baseUrl: fake.url, apiKey: API_KEY, ...options });
  const tab = app.browser();
  await tab.post('/login?user=grace');
  const signedIn = tab.cookies.get(SESSION_COOKIE)!;
  let release!: () => void;
  fake.holdCreate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const starting = tab.post<SessionResponseBody & { error?: { code: string } }>('/identity/session');
  while (fake.created.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
  const otherTab = new Browser(app.url);
  otherTab.cookies.set(SESSION_COOKIE, signedIn);
  await otherTab.post('/logout');
  release();
  fake.holdCreate = undefined;
  return { started: await starting, signedIn, tab };
}

describe('a sign-out while the kit creates a verification stays a sign-out', () => {
  it('anonymous: 409 SESSION_ENDED with no cookie; no id is signed in; the widget’s ask-again gets one', async () => {
    const { started, signedIn, tab } = await signOutWhileCreating();
    expect(started.status).toBe(409);
    expect(started.json.error?.code).toBe('SESSION_ENDED');
    expect(started.headers['set-cookie']).toBeUndefined();
    expect(await userHolding(signedIn)).toBeNull();
    expect(tab.cookies.get(SESSION_COOKIE)).toBe(signedIn);

    const again = await tab.post<SessionResponseBody>('/identity/session');
    expect(again.status).toBe(201);
    expect((await tab.get<{ user: string | null }>('/whoami')).json.user).toBeNull();
  });

  it('accounts: the verification is the account’s, and the signed-out id is not saved back', async () => {
    const { started, signedIn } = await signOutWhileCreating({ accountOf: signedInUser });
    expect(started.status).toBe(201);
    expect(await userHolding(signedIn)).toBeNull();
  });

  it('without the sign-out, the same request moves the signed-in session and keeps the person signed in', async () => {
    app = await startApp({ baseUrl: fake.url, apiKey: API_KEY });
    const tab = app.browser();
    await tab.post('/login?user=grace');
    const before = tab.cookies.get(SESSION_COOKIE)!;
    expect((await tab.post('/identity/session')).status).toBe(201);
    expect(tab.cookies.get(SESSION_COOKIE)).not.toBe(before);
    expect((await tab.get<{ user: string | null }>('/whoami')).json.user).toBe('grace');
    expect(await userHolding(before)).toBeNull();
  });
});
