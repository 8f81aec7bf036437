import type { BrowserContext } from '@playwright/test';
import { startDemo } from '@verify-kit/demo';
import { expect, type NewContext, test } from '../support/fixtures.js';
import { type DemoPerson, DemoSite } from '../support/flow.js';
import { setStatus, webhookAnswered } from '../support/sandbox-control.js';

/**
 * Upstream status reads the demo recorded since `since` (an ISO time). Counted by time, not by the
 * log's length: the log keeps the latest 100 entries, so once full a new read pushes an old one out.
 */
const readsSince = async (site: DemoSite, since: string) =>
  (await site.activity()).filter((e) => e.kind === 'status_call' && e.at > since).length;

/** The gate's answers since `since`, as the activity panel has them: path, answer and source. */
const gateAnswersSince = async (site: DemoSite, since: string) =>
  (await site.activity())
    .filter((e) => e.kind === 'gate' && e.at > since)
    .map((e) => `${e.path} ${e.answer} ${e.source ?? 'none'}`);

/**
 * Every gate answer since `since` (each page load of /account is the page and its API call, 200 or
 * 304) passed from the stored decision; `pages` loads of /account among them. Each answer is logged
 * when its response has finished: polled.
 */
async function expectAllStored(site: DemoSite, since: string, pages: number) {
  await expect
    .poll(async () => (await gateAnswersSince(site, since)).filter((a) => a.startsWith('/account ')).length)
    .toBe(pages);
  for (const answer of await gateAnswersSince(site, since)) expect(answer).toMatch(/ (200|304) stored$/);
}

/**
 * The same browser started again (a new browser session): the demo's long-lived browser cookie kept,
 * which its accounts are keyed on, and no session cookie. Its page: an account that is already
 * verified signs in again there (a new visit).
 */
async function sameBrowserAgain(
  newContext: NewContext,
  before: BrowserContext,
  person: DemoPerson,
  options?: Parameters<NewContext>[0],
) {
  const kept = (await before.cookies()).filter((cookie) => cookie.name === 'verify-kit-demo.browser');
  expect(kept).toHaveLength(1);
  const context = await newContext(options);
  await context.addCookies(kept);
  const there = new DemoSite(await context.newPage());
  await there.signInAs(person);
  await there.page.waitForURL(/\/verify$/);
  return there;
}

test('a visit reads the status once, then answers from the stored decision; a new visit reads; a revocation by webhook refuses at once', async ({
  page,
  site,
  demo,
  newContext,
}) => {
  const person = await site.signInVerified();

  // Inside the visit every gated request is answered from the stored decision: no read.
  const inVisit = new Date().toISOString();
  for (let visit = 0; visit < 3; visit++) await site.expectGateOpen();
  await expectAllStored(site, inVisit, 3);
  expect(await readsSince(site, inVisit)).toBe(0);
  // The activity panel says so.
  await page.goto('/verify');
  await expect(page.locator('#activity')).toContainText(
    /Gate on \/account(\s*×\d+)?\s*open: approved · from the stored decision \(inside this visit\)/,
  );
  await site.snap('verify-gate-from-stored-decision');

  // A new visit (a new browser session, the same account signing in) reads the status again.
  const elsewhere = await sameBrowserAgain(newContext, page.context(), person);
  await elsewhere.expectPhase('approved');
  const newVisit = new Date().toISOString();
  await elsewhere.expectGateOpen();
  await expect.poll(async () => (await gateAnswersSince(elsewhere, newVisit))[0]).toBe('/account 200 read');
  await elsewhere.page.context().close();

  // A reviewer revokes the approval (the sandbox's control API, from the test process only); its
  // webhook reaches the kit.
  const { identificationId } = await site.boundIds();
  const beforeRevocation = new Date().toISOString();
  expect(await setStatus(demo.sandbox, identificationId, 'REJECTED')).toMatchObject({
    status: 'REJECTED',
    previousStatus: 'APPROVED',
  });
  await expect
    .poll(async () =>
      (await site.activity()).some(
        (e) => e.kind === 'webhook' && e.at > beforeRevocation && e.type === 'identification.rejected',
      ),
    )
    .toBe(true);

  // The very next request of the same visit is refused: sent back to /verify, where the widget says
  // rejected.
  const refusedAt = new Date().toISOString();
  const response = await page.goto('/account');
  expect(response?.request().redirectedFrom()?.url()).toMatch(/\/account$/);
  await expect(page).toHaveURL(/\/verify\?returnTo=%2Faccount$/);
  await site.expectPhase('rejected');
  await expect(site.widget.locator('[part="title"]')).toHaveText('We could not verify your identity');
  await expect(page.locator('#account-state')).toHaveCount(0);
  await expect.poll(async () => (await gateAnswersSince(site, refusedAt))[0]).toBe('/account 303 read');
  expect((await site.apiGet('/api/demo/account')).status()).toBe(403);
  await site.snap('verify-approval-revoked');

  // And the other way round: an approval given again opens the gate at the next request once its
  // webhook is in (until then the refusal holds against reads saying APPROVED: refusalSettleMs).
  const beforeReapproval = new Date().toISOString();
  await setStatus(demo.sandbox, identificationId, 'APPROVED');
  await expect
    .poll(() => webhookAnswered(demo.sandbox, identificationId, 'identification.approved', beforeReapproval))
    .toBe(true);
  await site.expectGateOpen();
});

test('starting over keeps an approval; forgetting it shuts the gate at once', async ({ page, site }) => {
  await site.signInVerified();

  // The kit never replaces an approved verification with a restart: the gate stays open.
  await page.goto('/verify');
  await page.getByRole('button', { name: 'Start over with a new session' }).click();
  await site.expectPhase('approved');
  await site.expectGateOpen();

  // Forgetting it unbinds it: the very next visit is refused, and a new session starts.
  await page.getByRole('button', { name: 'Forget my verification' }).click();
  await page.waitForURL(/\/verify$/);
  await site.expectPhase('awaiting_user');
  await site.expectGateShut();

  await site.submitDocument({ scenario: 'reject' });
  await site.expectPhase('rejected');
  await site.expectGateShut();
});

test('the service down: a verified person inside a visit still reaches the account page; a new visit gets the service-unavailable page', async ({
  newContext,
}) => {
  // Its own demo and sandbox, so stopping the service does not disturb the other tests.
  const demo = await startDemo({ port: 0, reviewDelayMs: 50 });
  const sandbox = demo.sandbox;
  if (sandbox === undefined) throw new Error('expected the embedded sandbox');
  const own = { baseURL: demo.url, apiKey: sandbox.apiKey };
  const context = await newContext(own);
  try {
    const site = new DemoSite(await context.newPage());
    const person = await site.signInVerified();

    await sandbox.close();

    // Inside the visit the stored decision answers: the account page opens, the API too.
    const down = new Date().toISOString();
    await site.expectGateOpen();
    expect((await site.apiGet('/api/demo/account')).status()).toBe(200);
    await expectAllStored(site, down, 1);
    await site.snap('account-service-down-inside-visit');

    // A new visit (a new browser session, the same account) must read the status: it cannot, so the gate
    // fails closed with words a person can read, never the account.
    const elsewhere = await sameBrowserAgain(newContext, context, person, own);
    const response = await elsewhere.page.goto('/account');
    expect(response?.status()).toBe(503);
    await expect(elsewhere.page.getByRole('heading', { level: 1 })).toHaveText(
      'The identity verification service is not reachable',
    );
    await expect(elsewhere.page.locator('body')).not.toContainText('Your identity is verified');
    await elsewhere.snap('account-upstream-down');
    expect((await elsewhere.apiGet('/api/demo/account')).status()).toBe(503);

    // The verify page says the same in the widget.
    await elsewhere.page.goto('/verify');
    await elsewhere.page.getByRole('button', { name: 'Start over with a new session' }).click();
    await expect(elsewhere.page.getByRole('alert')).toContainText('cannot be reached');
    await elsewhere.page.reload();
    await expect(elsewhere.part('title')).toHaveText('Something went wrong');
    await expect(elsewhere.widget).toContainText('The verification service is not available right now');
    await elsewhere.snap('verify-upstream-down');
    // Both browsers closed before the demo, so their open long-polls end instead of being waited for.
    await elsewhere.page.context().close();
  } finally {
    await context.close();
    await demo.close();
  }
});
