import { en } from '../src/strings.en.js';
import {
  events,
  eventTypes,
  expect,
  FAST_START,
  kitError,
  SLOW_START,
  setHidden,
  test,
  title,
} from './fixtures.js';

test('long-polls /status with wait and since, and shows a change as soon as the kit answers', async ({
  stub,
  widget,
  openStarted,
}) => {
  await openStarted();
  await expect.poll(() => stub.inFlight).toBe(1);
  const held = stub.calls('/identity/status').at(-1)!;
  expect(held.method).toBe('GET');
  expect(Object.fromEntries(held.query)).toEqual({ wait: '25', since: 'awaiting_user' });

  stub.setPhase('in_review');
  await expect(title(widget)).toHaveText(en.reviewTitle);
  await expect.poll(() => stub.calls('/identity/status').at(-1)?.query.get('since')).toBe('in_review');
  // Held requests, not polling: one read per phase.
  expect(stub.calls('/identity/status')).toHaveLength(2);
});

test('falls back to plain polling when the kit answers at once, and still sees the change', async ({
  stub,
  openStarted,
  kitApproves,
}) => {
  stub.longPoll = false;
  await openStarted();
  await expect.poll(() => stub.calls('/identity/status').length).toBeGreaterThanOrEqual(4);
  await kitApproves();
});

test('backs off on 429 for as long as Retry-After says, without showing an error', async ({
  page,
  stub,
  widget,
}) => {
  stub.longPoll = false;
  stub.statusReplies.push({
    status: 429,
    headers: { 'retry-after': '1' },
    body: { error: { code: 'RATE_LIMITED', message: 'slow down' } },
  });
  await page.goto(stub.page({ attrs: FAST_START }));
  await expect.poll(() => stub.calls('/identity/status').length).toBeGreaterThanOrEqual(2);
  const [limited, next] = stub.calls('/identity/status');
  expect(limited?.answeredStatus).toBe(429);
  expect(next!.at - limited!.answeredAt!).toBeGreaterThanOrEqual(950);
  await expect(title(widget)).toHaveText(en.awaitingTitle);
  expect(await eventTypes(page)).not.toContain('verify-identity-error');
});

test('retries server errors with a growing backoff and recovers without an error', async ({
  page,
  stub,
  kitApproves,
}) => {
  stub.longPoll = false;
  for (let i = 0; i < 4; i++) stub.statusReplies.push(kitError(500, 'BOOM'));
  await page.goto(stub.page({ attrs: FAST_START }));
  await expect.poll(() => stub.calls('/identity/status').length).toBeGreaterThanOrEqual(5);
  const calls = stub.calls('/identity/status');
  // Backoff 50·2ⁿ ms ±25%: after the 4th failure the element waits at least 400 × 0.75 ms.
  expect(calls[4]!.at - calls[3]!.answeredAt!).toBeGreaterThanOrEqual(300);
  await kitApproves();
  expect(await eventTypes(page)).not.toContain('verify-identity-error');
});

test('gives up after repeated server errors with a retry that resumes the session', async ({
  page,
  stub,
  widget,
  open,
}) => {
  for (let i = 0; i < 5; i++) stub.statusReplies.push(kitError(503, 'UPSTREAM_UNAVAILABLE'));
  await open({ attrs: FAST_START }, en.errorTitle);
  await expect(widget.getByText(en.errorUnavailable)).toBeVisible();
  expect(stub.calls('/identity/status')).toHaveLength(5);
  expect((await events(page)).at(-1)).toEqual(
    expect.objectContaining({
      type: 'verify-identity-error',
      detail: { code: 'UPSTREAM_UNAVAILABLE', message: en.errorUnavailable },
    }),
  );
  await widget.getByRole('button', { name: en.retry }).click();
  await expect(title(widget)).toHaveText(en.awaitingTitle);
  expect(stub.sessions).toBe(1);
});

test('a 404 NO_VERIFICATION_SESSION while following (another tab rotated the cookie) is re-read once, not an error', async ({
  page,
  stub,
  widget,
  openStarted,
  kitApproves,
}) => {
  await openStarted();
  // The held long-poll answers the change; the call after it meets the 404.
  stub.statusReplies.push({
    status: 404,
    body: { error: { code: 'NO_VERIFICATION_SESSION', message: 'no verification was started' } },
  });
  stub.setPhase('in_review', 'IN_AUTOMATIC_REVIEW');
  await expect(title(widget)).toHaveText(en.reviewTitle);
  await expect.poll(() => stub.statusReplies.length).toBe(0);
  await kitApproves();
  expect(await eventTypes(page)).not.toContain('verify-identity-error');
});

test('two 404s in a row while following are an error, as before', async ({
  page,
  stub,
  widget,
  openStarted,
}) => {
  await openStarted();
  for (let i = 0; i < 2; i++)
    stub.statusReplies.push({
      status: 404,
      body: { error: { code: 'NO_VERIFICATION_SESSION', message: 'no verification was started' } },
    });
  stub.setPhase('in_review', 'IN_AUTOMATIC_REVIEW');
  await expect(title(widget)).toHaveText(en.errorTitle);
  expect((await events(page)).at(-1)).toEqual(expect.objectContaining({ type: 'verify-identity-error' }));
});

test('pauses while the tab is hidden and resumes when it is shown', async ({ page, stub, widget }) => {
  stub.longPoll = false;
  await page.goto(stub.page({ attrs: FAST_START }));
  await expect.poll(() => stub.calls('/identity/status').length).toBeGreaterThanOrEqual(2);
  await setHidden(page, true);
  await expect.poll(() => stub.inFlight).toBe(0);
  const reads = stub.calls('/identity/status').length;
  stub.setPhase('in_review');
  // Unpaused, polling every ≤ 500 ms would have read at least once in this time.
  await page.waitForTimeout(700);
  expect(stub.calls('/identity/status')).toHaveLength(reads);
  await expect(title(widget)).toHaveText(en.awaitingTitle);

  await setHidden(page, false);
  await expect(title(widget)).toHaveText(en.reviewTitle);
});

test('a hidden tab drops its held long-poll, and re-reads at once when shown again', async ({
  page,
  stub,
  widget,
}) => {
  await page.goto(stub.page({ attrs: SLOW_START }));
  await expect.poll(() => stub.inFlight).toBe(1);
  await setHidden(page, true);
  await expect.poll(() => stub.inFlight).toBe(0);
  stub.setPhase('approved', 'APPROVED');
  await setHidden(page, false);
  await expect(title(widget)).toHaveText(en.approvedTitle);
});

test('re-reads at once when the page comes back from the back/forward cache', async ({
  page,
  stub,
  widget,
}) => {
  stub.longPoll = false;
  await page.goto(stub.page({ attrs: SLOW_START }));
  await expect.poll(() => stub.calls('/identity/status').length).toBe(1);
  await page.evaluate(() => dispatchEvent(new PageTransitionEvent('pagehide', { persisted: true })));
  stub.setPhase('in_review');
  // A pageshow that is not a restore from the cache (a fresh load) needs nothing.
  await page.evaluate(() => dispatchEvent(new PageTransitionEvent('pageshow', { persisted: false })));
  await page.waitForTimeout(300);
  expect(stub.calls('/identity/status')).toHaveLength(1);

  await page.evaluate(() => dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true })));
  await expect(title(widget)).toHaveText(en.reviewTitle);
  expect(stub.calls('/identity/status')[1]?.query.get('since')).toBe('awaiting_user');
});

test('never more than one request in flight: changes, slow answers, 429s, errors and tab switches', async ({
  page,
  stub,
  widget,
  kitApproves,
}) => {
  stub.longPoll = false;
  stub.statusReplies.push({ delayMs: 300 }, kitError(429, 'RATE_LIMITED', '0'), kitError(500, 'BOOM'), {
    delayMs: 200,
  });
  await page.goto(stub.page({ attrs: FAST_START }));
  await expect.poll(() => stub.statusReplies.length).toBe(0);
  stub.longPoll = true;
  stub.setPhase('in_review');
  await expect(title(widget)).toHaveText(en.reviewTitle);
  await setHidden(page, true);
  await expect.poll(() => stub.inFlight).toBe(0);
  stub.setPhase('resubmission_required', 'RESUBMISSION_REQUIRED');
  await setHidden(page, false);
  await expect(title(widget)).toHaveText(en.resubmitTitle);
  await widget.getByRole('button', { name: en.continue }).click();
  stub.longPoll = false;
  stub.setPhase('in_review');
  await expect(title(widget)).toHaveText(en.reviewTitle);
  await kitApproves();
  expect(stub.calls('/identity/status').length).toBeGreaterThanOrEqual(8);
  expect(stub.maxInFlight).toBe(1);
});
