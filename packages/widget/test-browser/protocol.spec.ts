import type { SendLinkOffer } from '@verify-kit/protocol';
import { en } from '../src/strings.en.js';
import {
  eventTypes,
  expect,
  expectNoAxeViolations,
  FAST,
  FAST_START,
  kitError,
  SLOW_START,
  shownCode,
  test,
  title,
} from './fixtures.js';

// The person's own contacts, masked, as the kit offers them for the send-link.
const EMAIL: SendLinkOffer = { channel: 'email', to: 'a•••@example.com' };
const SMS: SendLinkOffer = { channel: 'sms', to: '•••••67' };

test('409 SESSION_CREATION_IN_PROGRESS on start: asks again after Retry-After, without an error', async ({
  page,
  stub,
  openStarted,
}) => {
  stub.sessionReplies.push(kitError(409, 'SESSION_CREATION_IN_PROGRESS', '1'));
  await openStarted();
  const [busy, again] = stub.calls('/identity/session');
  expect(busy?.answeredStatus).toBe(409);
  expect(again!.at - busy!.answeredAt!).toBeGreaterThanOrEqual(950);
  expect(await eventTypes(page)).not.toContain('verify-identity-error');
});

test('429 TOO_MANY_SESSIONS with a short Retry-After on start is honoured, then the session shows', async ({
  stub,
  openStarted,
}) => {
  stub.sessionReplies.push(kitError(429, 'TOO_MANY_SESSIONS', '1'));
  await openStarted();
  const [limited, again] = stub.calls('/identity/session');
  expect(again!.at - limited!.answeredAt!).toBeGreaterThanOrEqual(950);
});

test('503 on start (a store restarting, an instance draining) is asked again after a backoff, without an error', async ({
  page,
  stub,
  openStarted,
}) => {
  stub.sessionReplies.push(kitError(503, 'BINDING_STORE_UNAVAILABLE'));
  await openStarted();
  const [failed, again] = stub.calls('/identity/session');
  expect(failed?.answeredStatus).toBe(503);
  // Backoff 1 s ±25%: never at once.
  expect(again!.at - failed!.answeredAt!).toBeGreaterThanOrEqual(700);
  expect(await eventTypes(page)).not.toContain('verify-identity-error');
});

test('503 on a send is not asked again (the link may have gone out): it says so', async ({
  stub,
  widget,
  openOffering,
}) => {
  await openOffering([EMAIL]);
  stub.sessionReplies.push(kitError(503, 'UPSTREAM_UNAVAILABLE'));
  await widget.getByRole('button', { name: `${en.send} ${en.email}: a•••@example.com` }).click();
  await expect(widget.getByRole('alert')).toHaveText(en.sendFailed);
  await expect(title(widget)).toHaveText(en.awaitingTitle);
  expect(stub.calls('/identity/session')).toHaveLength(2);
});

test('429 TOO_MANY_LONG_POLLS with Retry-After 0 or -1 is retried after the backoff, never at once', async ({
  page,
  stub,
  widget,
}) => {
  for (const value of ['0', '-1', '0']) {
    stub.statusReplies.push({
      status: 429,
      headers: { 'retry-after': value },
      body: { error: { code: 'TOO_MANY_LONG_POLLS', message: 'x' } },
    });
  }
  await page.goto(stub.page({ attrs: 'endpoint="/identity" poll-interval="400" auto-start' }));
  // Three backoffs take up to 500 + 1000 + 2000 ms by design: more than expect's 5 s once a loaded
  // machine adds the page's start, so the wait is the design's sum with room, not the default.
  await expect
    .poll(() => stub.calls('/identity/status').length, { timeout: 15_000 })
    .toBeGreaterThanOrEqual(4);
  const calls = stub.calls('/identity/status');
  // Backoff 400·2ⁿ ms ±25% (300 ms at least; 250 leaves room for timer granularity): never at once.
  for (let i = 1; i < 4; i++) expect(calls[i]!.at - calls[i - 1]!.answeredAt!).toBeGreaterThanOrEqual(250);
  await expect(title(widget)).toHaveText(en.awaitingTitle);
});

test('pollAfterMs from the kit: reads without wait (no long-poll) and still sees the change', async ({
  page,
  stub,
  kitApproves,
}) => {
  stub.pollAfterMs = 100;
  await page.goto(stub.page({ attrs: SLOW_START }));
  await expect.poll(() => stub.calls('/identity/status').length).toBeGreaterThanOrEqual(2);
  for (const call of stub.calls('/identity/status')) expect(call.query.has('wait')).toBe(false);
  await kitApproves();
});

test('manual review is its own state: a person checks, the page may be closed', async ({
  page,
  stub,
  widget,
  openStarted,
  kitApproves,
}) => {
  await openStarted();
  stub.setPhase('in_review');
  await expect(title(widget)).toHaveText(en.reviewTitle);
  stub.setPhase('in_manual_review', 'IN_MANUAL_REVIEW');
  await expect(title(widget)).toHaveText(en.manualTitle);
  await expect(widget.getByText(en.manualText)).toBeVisible();
  await kitApproves();
  expect(await eventTypes(page)).toEqual([
    'phase-change',
    'phase-change',
    'phase-change',
    'phase-change',
    'approved',
  ]);
});

test('after a rejection: one Try again (a new session) and the product’s own help in the slot', async ({
  page,
  stub,
  widget,
}) => {
  await page.goto(
    stub.page({ attrs: FAST_START, inner: '<a slot="rejected" href="/elsewhere">Contact support</a>' }),
  );
  await expect(title(widget)).toHaveText(en.awaitingTitle);
  stub.setPhase('rejected', 'REJECTED');
  await expect(title(widget)).toHaveText(en.rejectedTitle);
  await expect(page.getByRole('link', { name: 'Contact support' })).toBeVisible();
  await expect(widget.getByRole('button')).toHaveCount(1);
  await widget.getByRole('button', { name: en.retry }).click();
  await expect(shownCode(widget)).toHaveText('P9WN 3HJE');
  expect(stub.sentSession(1)).toEqual({ restart: true, locale: 'en' });
});

test('no send-link part unless the kit offers a channel', async ({ widget, openStarted }) => {
  await openStarted();
  await expect(widget.getByRole('button', { name: en.send })).toHaveCount(0);
  await expect(widget.locator('[part~="send-link"]')).toHaveCount(0);
});

test('send the link by e-mail: no address field, the button names the masked contact, the body only the channel', async ({
  page,
  stub,
  widget,
  openOffering,
}) => {
  await openOffering([EMAIL]);
  // The browser never chooses the recipient: nothing to type it into.
  await expect(widget.getByRole('textbox')).toHaveCount(0);
  await expect(widget.locator('input')).toHaveCount(0);
  await widget.getByRole('button', { name: `${en.send} ${en.email}: a•••@example.com` }).click();
  await expect(widget.getByText(en.sentTo.replace('{to}', 'a•••@example.com'))).toBeVisible();
  expect(stub.sentSession(1)).toEqual({
    restart: true,
    sendTo: { channel: 'email' },
    locale: 'en',
  });
  await expect(shownCode(widget)).toHaveText('P9WN 3HJE');
  const resend = widget.locator('[part~="send"]');
  await expect(resend).toHaveText(/^Send again in \d+ s$/);
  await expect(resend).toHaveAttribute('aria-disabled', 'true');
  await resend.focus();
  await page.keyboard.press('Enter');
  expect(stub.calls('/identity/session')).toHaveLength(2);
});

test('with e-mail and SMS both offered, one button each, named by its channel and contact', async ({
  stub,
  widget,
  openOffering,
}) => {
  await openOffering([EMAIL, SMS]);
  await expect(
    widget.getByRole('button', { name: `${en.send} ${en.email}: a•••@example.com`, exact: true }),
  ).toHaveCount(1);
  await widget.getByRole('button', { name: `${en.send} ${en.sms}: •••••67`, exact: true }).click();
  // Shown once the send was answered: only then has the stub surely seen its body.
  await expect(widget.getByText(en.sentTo.replace('{to}', '•••••67'))).toBeVisible();
  expect(stub.sentSession(1).sendTo).toEqual({ channel: 'sms' });
});

test('a refused send says so and keeps the session on screen; a long 429 says to wait', async ({
  page,
  stub,
  widget,
  openOffering,
}) => {
  await openOffering([EMAIL]);
  const send = widget.getByRole('button', { name: `${en.send} ${en.email}: a•••@example.com` });
  stub.sessionReplies.push(kitError(403, 'SEND_LINK_NO_CONTACT'));
  await send.click();
  await expect(widget.getByRole('alert')).toHaveText(en.sendFailed);
  await expect(title(widget)).toHaveText(en.awaitingTitle);
  await expect(shownCode(widget)).toHaveText('K7QM 4XRT');
  // Asked again at once, not after a cooldown, and the refusal is no error event of the element.
  await expect(send).toHaveAttribute('aria-disabled', 'false');
  expect(await eventTypes(page)).not.toContain('verify-identity-error');
  stub.sessionReplies.push(kitError(429, 'TOO_MANY_SENDS', '3600'));
  await send.click();
  await expect(widget.getByRole('alert')).toHaveText(en.errorBusy);
  expect(stub.calls('/identity/session')).toHaveLength(3);
});

test('the send-link part passes axe-core offered, refused and sent, light and dark', async ({
  page,
  stub,
  widget,
  openOffering,
}) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await openOffering([EMAIL, SMS]);
  await expectNoAxeViolations(page, 'send-link offered (dark)');
  const send = widget.getByRole('button', { name: `${en.send} ${en.sms}: •••••67` });
  stub.sessionReplies.push(kitError(403, 'SEND_LINK_COUNTRY_NOT_ALLOWED'));
  await send.click();
  await expect(widget.getByRole('alert')).toHaveText(en.sendFailed);
  await expectNoAxeViolations(page, 'send-link refused (dark)');
  await page.emulateMedia({ colorScheme: 'light' });
  await send.click();
  await expect(widget.getByText(en.sentTo.replace('{to}', '•••••67'))).toBeVisible();
  await expectNoAxeViolations(page, 'send-link sent (light)');
});

test('one polite live region, and the page does not scroll when the view changes', async ({
  page,
  stub,
  widget,
}) => {
  await page.setViewportSize({ width: 1024, height: 300 });
  await page.goto(stub.page({ attrs: FAST }));
  await widget.getByRole('button', { name: en.start }).press('Enter');
  await expect(title(widget)).toHaveText(en.awaitingTitle);
  await expect(widget.locator('[role="status"], [aria-live]')).toHaveCount(1);
  const scrolled = await page.evaluate(() => scrollY);
  stub.setPhase('in_review');
  await expect(title(widget)).toHaveText(en.reviewTitle);
  expect(await page.evaluate(() => scrollY)).toBe(scrolled);
});

test('the holder: one random id per browser, kept in localStorage and sent with every start; another browser has its own', async ({
  page,
  stub,
  browser,
}) => {
  await page.goto(stub.page({ attrs: FAST_START }));
  await expect.poll(() => stub.calls('/identity/session').length).toBe(1);
  await page.reload();
  await expect.poll(() => stub.calls('/identity/session').length).toBe(2);
  expect(stub.sentSession(1)).toEqual({ locale: 'en' }); // the same holder as the first start's
  const mine = await page.evaluate(() => localStorage.getItem('vkHolder'));
  expect(JSON.parse(stub.calls('/identity/session')[0]?.body ?? '').holder).toBe(mine);
  const elsewhere = await browser.newContext();
  try {
    await (await elsewhere.newPage()).goto(stub.page({ attrs: FAST_START }));
    await expect.poll(() => stub.calls('/identity/session').length).toBe(3);
    const theirs = JSON.parse(stub.calls('/identity/session')[2]?.body ?? '').holder;
    expect(theirs).toMatch(/^[0-9a-f-]{36}$/);
    expect(theirs).not.toBe(mine);
  } finally {
    await elsewhere.close();
  }
});
