import { createSandboxControl } from '@verify-kit/sandbox/control';
import { Browser, CookieJar } from '@verify-kit/testkit';
import type { Dispatcher } from 'undici';
import { runPool } from '../stats.js';
import type { Stack } from './stack.js';

export interface ApprovedUser {
  /** The Cookie header this person's browser sends. */
  cookie: string;
  identificationId: string;
  /** The account it signed in to (`signIn`), to sign in again later: a new visit. */
  userId?: string;
}

/** A browser of one person on the bench app; its responses stay out of the test transcript. */
export function benchBrowser(stack: Pick<Stack, 'appUrl'>, dispatcher?: Dispatcher): Browser {
  return new Browser(stack.appUrl, new CookieJar(), { record: false, ...(dispatcher ? { dispatcher } : {}) });
}

/**
 * `count` distinct people, each verified through the app at `stack.appUrl` and approved by the
 * sandbox, with the cookies the gate settled on (the first approval moves an anonymous session to
 * a new id), each inside a visit of the default gate (`/visit`) when it is returned.
 * On the Express app (app.ts) each has passed its strict gate (`/gated`) first and set the
 * identification `/limit` reads; `signIn`: each signs in first, so the verification is bound to an
 * account. `visitOnly`: an app with the default gate alone (shell-apps.ts, the Next.js app).
 */
export async function approvedUsers(
  stack: Pick<Stack, 'appUrl' | 'sandboxUrl' | 'apiKey'>,
  count: number,
  { signIn = false, visitOnly = false } = {},
): Promise<ApprovedUser[]> {
  const sandbox = createSandboxControl({ url: stack.sandboxUrl, apiKey: stack.apiKey });
  const users: ApprovedUser[] = [];
  await runPool(count, 8, async () => {
    const browser = benchBrowser(stack);
    const signedIn = signIn ? await browser.post<{ userId: string }>('/sign-in') : undefined;
    if (signedIn) expectStatus(201, signedIn, 'POST /sign-in');
    const created = await browser.post<{ sessionCode: string }>('/identity/session');
    expectStatus(201, created, 'POST /identity/session');
    const { identificationId } = await sandbox.submitByCode(created.json.sessionCode, 'approve');
    await sandbox.waitForStatus(identificationId, 'APPROVED');
    if (!visitOnly) {
      for (let i = 0; i < 2; i++)
        expectStatus(200, await browser.get('/gated'), 'an approved user at /gated');
    }
    // The visit starts here (the default gate's read); the load's requests are inside it.
    expectStatus(200, await browser.get('/visit'), 'an approved user at /visit');
    if (!visitOnly) await browser.post(`/bench/limit?id=${encodeURIComponent(identificationId)}`);
    users.push({
      cookie: browser.cookieHeader,
      identificationId,
      ...(signedIn ? { userId: signedIn.json.userId } : {}),
    });
  });
  return users;
}

function expectStatus(status: number, answer: { status: number; text: string }, what: string): void {
  if (answer.status !== status) throw new Error(`${what}: ${answer.status} ${answer.text.slice(0, 200)}`);
}
