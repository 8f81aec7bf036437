// Every session id move (a new verification, the first approval) must not leave a dead session in
// the integrator's store for each visitor: the old session is destroyed, also when it holds the app's
// data (issue 26 finding 4: an old id must not stay signed in; session-move.test.ts).
import session from 'express-session';
import { describe, expect, it } from 'vitest';
import { startVerificationIn, useSandboxApp } from './support/fixtures.js';
import { submitDocument, waitForStatus } from './support/sandbox.js';

const API_KEY = 'sk_test_store_growth_51c0';
const store = new session.MemoryStore();
const ctx = useSandboxApp(API_KEY, {}, {}, { sessionStore: store });

const sessionsInStore = () =>
  new Promise<number>((resolve, reject) =>
    store.length((error, n) => (error ? reject(error) : resolve(n ?? 0))),
  );

async function verifyAndPass(signIn: boolean) {
  const browser = ctx.app.browser();
  if (signIn) await browser.post('/login?user=ada');
  const { sessionCode, identificationId } = await startVerificationIn(ctx.sandbox, browser);
  await submitDocument(ctx.sandbox, sessionCode, 'approve');
  await waitForStatus(ctx.sandbox, identificationId, 'APPROVED');
  expect((await browser.get('/account')).status).toBe(200);
}

describe('the session store after a verification', () => {
  it('holds one session for an anonymous visitor who verified and passed the gate', async () => {
    await verifyAndPass(false);
    expect(await sessionsInStore()).toBe(1);
  });

  it("destroys the old sessions that hold the app's own data too: one session per signed-in visitor", async () => {
    const before = await sessionsInStore();
    await verifyAndPass(true);
    expect(await sessionsInStore()).toBe(before + 1);
  });
});
