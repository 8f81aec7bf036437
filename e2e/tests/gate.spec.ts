import { startDemo } from '@verify-kit/demo';
import { expect, test } from '../support/fixtures.js';
import {
  activity,
  apiGet,
  boundIds,
  continueToAccount,
  expectGateOpen,
  expectGateShut,
  expectPhase,
  phone,
  signIn,
  snap,
  submitDocument,
  widget,
} from '../support/flow.js';
import { setStatus } from '../support/sandbox-control.js';

/**
 * Upstream status reads the demo recorded since `since` (an ISO time). Counted by time, not by the
 * log's length: the log keeps the latest 100 entries, so once full a new read pushes an old one out.
 */
const readsSince = async (page: import('@playwright/test').Page, since: string) =>
  (await activity(page.request)).filter((e) => e.kind === 'status_call' && e.at > since).length;

test('the gate re-reads on every visit: a decision changed after approval is honoured on the next visit', async ({
  page,
  demo,
}) => {
  await signIn(page);
  await submitDocument(phone(page));
  await expectPhase(page, 'approved');
  await continueToAccount(page);

  // Each visit reaches the service again: no approval is cached. (Within one second, a burst of one
  // person's requests beyond 5 may share a read under a second old, the kit's bound on upstream
  // reads: visits a second apart each read.)
  const beforeVisits = new Date().toISOString();
  for (let visit = 0; visit < 2; visit++) {
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await expectGateOpen(page);
  }
  await expect.poll(() => readsSince(page, beforeVisits)).toBeGreaterThanOrEqual(2);

  // A reviewer revokes the approval (the sandbox's control API, from the test process only).
  const { identificationId } = await boundIds(page.request);
  const beforeRevocation = new Date().toISOString();
  expect(await setStatus(demo.sandbox, identificationId, 'REJECTED')).toMatchObject({
    status: 'REJECTED',
    previousStatus: 'APPROVED',
  });

  // The very next visit is refused, from a read made after the revocation (the one its webhook
  // triggers, or the visit's own: a read under a second old may serve a burst, and the webhook
  // clears what was read before it): sent back to /verify, where the widget says rejected.
  const response = await page.goto('/account');
  expect(response?.request().redirectedFrom()?.url()).toMatch(/\/account$/);
  await expect(page).toHaveURL(/\/verify\?returnTo=%2Faccount$/);
  await expectPhase(page, 'rejected');
  await expect(widget(page).locator('[part="title"]')).toHaveText('We could not verify your identity');
  await expect(page.locator('#account-state')).toHaveCount(0);
  await expect.poll(() => readsSince(page, beforeRevocation)).toBeGreaterThan(0);
  expect((await apiGet(page.request, '/api/demo/account')).status()).toBe(403);
  await snap(page, 'verify-approval-revoked');

  // And the other way round: an approval given again opens the gate on the next visit.
  await setStatus(demo.sandbox, identificationId, 'APPROVED');
  await expectGateOpen(page);
});

test('starting over keeps an approval; forgetting it shuts the gate at once', async ({ page }) => {
  await signIn(page);
  await submitDocument(phone(page));
  await expectPhase(page, 'approved');
  await continueToAccount(page);

  // The kit never replaces an approved verification with a restart: the gate stays open.
  await page.goto('/verify');
  await page.getByRole('button', { name: 'Start over with a new session' }).click();
  await expectPhase(page, 'approved');
  await expectGateOpen(page);

  // Forgetting it unbinds it: the very next visit is refused, and a new session starts.
  await page.getByRole('button', { name: 'Forget my verification' }).click();
  await page.waitForURL(/\/verify$/);
  await expectPhase(page, 'awaiting_user');
  await expectGateShut(page);

  await submitDocument(phone(page), { scenario: 'reject' });
  await expectPhase(page, 'rejected');
  await expectGateShut(page);
});

test('the upstream down: a clear error, and the gate stays shut', async ({ browser }) => {
  // Its own demo and sandbox, so stopping the service does not disturb the other tests.
  const demo = await startDemo({ port: 0, reviewDelayMs: 50 });
  const sandbox = demo.sandbox;
  if (sandbox === undefined) throw new Error('expected the embedded sandbox');
  const context = await browser.newContext({ baseURL: demo.url });
  const { LeakWatch } = await import('../support/leak-watch.js');
  const watch = new LeakWatch(context, [sandbox.apiKey]);
  try {
    const page = await context.newPage();
    await signIn(page);
    await submitDocument(phone(page));
    await expectPhase(page, 'approved');
    await continueToAccount(page);

    await sandbox.close();
    // A person's reads beyond maxReadsPerSecond (5) may be served from a read under 1 s old, which
    // the approval just was: past that second, every gated request asks the (dead) service.
    await page.waitForTimeout(1_100);

    // The gate fails closed with words a person can read, never the account.
    const response = await page.goto('/account');
    expect(response?.status()).toBe(503);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'The identity verification service is not reachable',
    );
    await expect(page.locator('body')).not.toContainText('Your identity is verified');
    await snap(page, 'account-upstream-down');
    expect((await apiGet(page.request, '/api/demo/account')).status()).toBe(503);

    // The verify page says the same in the widget.
    await page.goto('/verify');
    await page.getByRole('button', { name: 'Start over with a new session' }).click();
    await expect(page.getByRole('alert')).toContainText('cannot be reached');
    await page.reload();
    await expect(widget(page).locator('[part="title"]')).toHaveText('Something went wrong');
    await expect(widget(page)).toContainText('The verification service is not available right now');
    await snap(page, 'verify-upstream-down');
  } finally {
    for (const page of context.pages()) await page.close();
    const leaks = await watch.settle();
    await context.close();
    await demo.close();
    expect(watch.checked).toBeGreaterThan(0);
    expect(leaks).toEqual([]);
  }
});
