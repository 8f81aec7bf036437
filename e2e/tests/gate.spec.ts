import type { Browser, BrowserContext } from '@playwright/test';
import { startDemo } from '@verify-kit/demo';
import { expect, test } from '../support/fixtures.js';
import {
  activity,
  apiGet,
  boundIds,
  continueToAccount,
  type DemoPerson,
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

/** The gate's answers since `since`, as the activity panel has them: path, answer and source. */
const gateAnswersSince = async (page: import('@playwright/test').Page, since: string) =>
  (await activity(page.request))
    .filter((e) => e.kind === 'gate' && e.at > since)
    .map((e) => `${e.path} ${e.answer} ${e.source ?? 'none'}`);

/**
 * Every gate answer since `since` (each page load of /account is the page and its API call, 200 or
 * 304) passed from the stored decision; `pages` loads of /account among them. Each answer is logged
 * when its response has finished: polled.
 */
async function expectAllStored(page: import('@playwright/test').Page, since: string, pages: number) {
  await expect
    .poll(async () => (await gateAnswersSince(page, since)).filter((a) => a.startsWith('/account ')).length)
    .toBe(pages);
  for (const answer of await gateAnswersSince(page, since)) expect(answer).toMatch(/ (200|304) stored$/);
}

/**
 * The same browser started again (a new browser session): the demo's long-lived browser cookie kept,
 * which its accounts are keyed on, and no session cookie.
 */
async function sameBrowserAgain(browser: Browser, before: BrowserContext, baseURL: string) {
  const kept = (await before.cookies()).filter((cookie) => cookie.name === 'verify-kit-demo.browser');
  expect(kept).toHaveLength(1);
  const context = await browser.newContext({ baseURL });
  await context.addCookies(kept);
  return context;
}

/** An account that is already verified signs in again in another browser: a new visit. */
async function signInAgain(page: import('@playwright/test').Page, person: DemoPerson): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Name').fill(person.name);
  await page.getByLabel('E-mail').fill(person.email);
  await page.getByRole('button', { name: 'Sign in with the demo account' }).click();
  await page.waitForURL(/\/verify$/);
}

test('a visit reads the status once, then answers from the stored decision; a new visit reads; a revocation by webhook refuses at once', async ({
  page,
  demo,
  browser,
}) => {
  const person = await signIn(page);
  await submitDocument(phone(page));
  await expectPhase(page, 'approved');
  await continueToAccount(page);

  // Inside the visit every gated request is answered from the stored decision: no read.
  const inVisit = new Date().toISOString();
  for (let visit = 0; visit < 3; visit++) await expectGateOpen(page);
  await expectAllStored(page, inVisit, 3);
  expect(await readsSince(page, inVisit)).toBe(0);
  // The activity panel says so.
  await page.goto('/verify');
  await expect(page.locator('#activity')).toContainText(
    /Gate on \/account(\s*×\d+)?\s*open: approved · from the stored decision \(inside this visit\)/,
  );
  await snap(page, 'verify-gate-from-stored-decision');

  // A new visit (a new browser session, the same account signing in) reads the status again.
  const other = await sameBrowserAgain(browser, page.context(), demo.url);
  try {
    const elsewhere = await other.newPage();
    await signInAgain(elsewhere, person);
    await expectPhase(elsewhere, 'approved');
    const newVisit = new Date().toISOString();
    await expectGateOpen(elsewhere);
    await expect.poll(async () => (await gateAnswersSince(elsewhere, newVisit))[0]).toBe('/account 200 read');
  } finally {
    await other.close();
  }

  // A reviewer revokes the approval (the sandbox's control API, from the test process only); its
  // webhook reaches the kit.
  const { identificationId } = await boundIds(page.request);
  const beforeRevocation = new Date().toISOString();
  expect(await setStatus(demo.sandbox, identificationId, 'REJECTED')).toMatchObject({
    status: 'REJECTED',
    previousStatus: 'APPROVED',
  });
  await expect
    .poll(async () =>
      (await activity(page.request)).some(
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
  await expectPhase(page, 'rejected');
  await expect(widget(page).locator('[part="title"]')).toHaveText('We could not verify your identity');
  await expect(page.locator('#account-state')).toHaveCount(0);
  await expect.poll(async () => (await gateAnswersSince(page, refusedAt))[0]).toBe('/account 303 read');
  expect((await apiGet(page.request, '/api/demo/account')).status()).toBe(403);
  await snap(page, 'verify-approval-revoked');

  // And the other way round: an approval given again opens the gate at the next request.
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

test('the service down: a verified person inside a visit still reaches the account page; a new visit gets the service-unavailable page', async ({
  browser,
}) => {
  // Its own demo and sandbox, so stopping the service does not disturb the other tests.
  const demo = await startDemo({ port: 0, reviewDelayMs: 50 });
  const sandbox = demo.sandbox;
  if (sandbox === undefined) throw new Error('expected the embedded sandbox');
  const { LeakWatch } = await import('../support/leak-watch.js');
  const context = await browser.newContext({ baseURL: demo.url });
  const watches = [new LeakWatch(context, [sandbox.apiKey])];
  let later: BrowserContext | undefined;
  try {
    const page = await context.newPage();
    const person = await signIn(page);
    await submitDocument(phone(page));
    await expectPhase(page, 'approved');
    await continueToAccount(page);
    later = await sameBrowserAgain(browser, context, demo.url);
    watches.push(new LeakWatch(later, [sandbox.apiKey]));

    await sandbox.close();

    // Inside the visit the stored decision answers: the account page opens, the API too.
    const down = new Date().toISOString();
    await expectGateOpen(page);
    expect((await apiGet(page.request, '/api/demo/account')).status()).toBe(200);
    await expectAllStored(page, down, 1);
    await snap(page, 'account-service-down-inside-visit');

    // A new visit (a new browser session, the same account) must read the status: it cannot, so the gate
    // fails closed with words a person can read, never the account.
    const elsewhere = await later.newPage();
    await signInAgain(elsewhere, person);
    const response = await elsewhere.goto('/account');
    expect(response?.status()).toBe(503);
    await expect(elsewhere.getByRole('heading', { level: 1 })).toHaveText(
      'The identity verification service is not reachable',
    );
    await expect(elsewhere.locator('body')).not.toContainText('Your identity is verified');
    await snap(elsewhere, 'account-upstream-down');
    expect((await apiGet(elsewhere.request, '/api/demo/account')).status()).toBe(503);

    // The verify page says the same in the widget.
    await elsewhere.goto('/verify');
    await elsewhere.getByRole('button', { name: 'Start over with a new session' }).click();
    await expect(elsewhere.getByRole('alert')).toContainText('cannot be reached');
    await elsewhere.reload();
    await expect(widget(elsewhere).locator('[part="title"]')).toHaveText('Something went wrong');
    await expect(widget(elsewhere)).toContainText('The verification service is not available right now');
    await snap(elsewhere, 'verify-upstream-down');
  } finally {
    for (const open of [context, later]) for (const page of open?.pages() ?? []) await page.close();
    const leaks = await Promise.all(watches.map((watch) => watch.settle()));
    await context.close();
    await later?.close();
    await demo.close();
    expect(leaks.flat()).toEqual([]);
  }
  expect(watches).toHaveLength(2);
  for (const watch of watches) expect(watch.checked).toBeGreaterThan(0);
});
