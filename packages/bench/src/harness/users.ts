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
 * `count` distinct people, each verified through the kit and approved by the sandbox, with the
 * cookies the gate settled on (the first approval moves an anonymous session to a new id).
 * `signIn`: each signs in first, so the verification is bound to an account. Each is inside a
 * visit of the default gate (`/visit`) when it is returned.
 */
export async function approvedUsers(
  stack: Pick<Stack, 'appUrl' | 'sandboxUrl' | 'apiKey'>,
  count: number,
  signIn = false,
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
    for (let i = 0; i < 2; i++) expectStatus(200, await browser.get('/gated'), 'an approved user at /gated');
    // The visit starts here (the default gate's read); the load's requests are inside it.
    expectStatus(200, await browser.get('/visit'), 'an approved user at /visit');
    await browser.post(`/bench/limit?id=${encodeURIComponent(identificationId)}`);
    users.push({
      cookie: browser.cookieHeader,
      identificationId,
      ...(signedIn ? { userId: signedIn.json.userId } : {}),
    });
  });
  return users;
}

/**
 * `count` anonymous visitors of core's Fetch door at `url` (fetch-app.ts), each verified and
 * approved, inside a visit of its default gate (`/visit`): their sealed cookie as the gate left it.
 */
export async function approvedVisitors(
  url: string,
  stack: Pick<Stack, 'sandboxUrl' | 'apiKey'>,
  count: number,
): Promise<ApprovedUser[]> {
  const sandbox = createSandboxControl({ url: stack.sandboxUrl, apiKey: stack.apiKey });
  const users: ApprovedUser[] = [];
  await runPool(count, 8, async () => {
    const browser = benchBrowser({ appUrl: url });
    const created = await browser.post<{ sessionCode: string }>('/identity/session');
    expectStatus(201, created, 'POST /identity/session');
    const { identificationId } = await sandbox.submitByCode(created.json.sessionCode, 'approve');
    await sandbox.waitForStatus(identificationId, 'APPROVED');
    // The first approval moves the visitor to a new cookie; the visit starts with this read.
    expectStatus(200, await browser.get('/visit'), 'an approved visitor at /visit');
    users.push({ cookie: browser.cookieHeader, identificationId });
  });
  return users;
}

function expectStatus(status: number, answer: { status: number; text: string }, what: string): void {
  if (answer.status !== status) throw new Error(`${what}: ${answer.status} ${answer.text.slice(0, 200)}`);
}
