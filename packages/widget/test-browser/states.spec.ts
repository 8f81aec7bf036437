import { en } from '../src/strings.en.js';
import {
  events,
  eventTypes,
  expect,
  FAST,
  FAST_START,
  SLOW_START,
  shownCode,
  test,
  title,
} from './fixtures.js';
import type { Reply } from './stub-server.js';

test('idle shows a Start button; Start creates the session and shows the QR, the link, the code and the time left', async ({
  page,
  stub,
  widget,
  openIdle,
}) => {
  await openIdle();
  expect(stub.calls()).toHaveLength(0);

  await page.getByRole('button', { name: en.start }).click();
  await expect(title(widget)).toHaveText(en.awaitingTitle);

  const [post] = stub.calls('/identity/session');
  expect(post?.method).toBe('POST');
  expect(post?.headers['content-type']).toBe('application/json');
  expect(post?.headers.cookie).toContain('sid=stub-session');
  expect(stub.sentSession(0)).toEqual({ locale: 'en' });

  const qr = widget.getByRole('img', { name: en.qrAlt });
  await expect(qr).toHaveAttribute('src', stub.sessionBody().qrImage);
  await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await expect(widget.getByRole('link', { name: en.webPage })).toHaveAttribute(
    'href',
    stub.sessionBody().sessionPageLink,
  );
  await expect(shownCode(widget)).toHaveText('K7QM 4XRT');
  await expect(widget.locator('[part~="code"] .sr')).toHaveText('K 7 Q M 4 X R T');
  await expect(widget.locator('[part~="time"]')).toHaveText('Time left: 30 minutes');

  expect(await events(page)).toEqual([
    {
      type: 'phase-change',
      detail: { phase: 'awaiting_user', status: 'IN_AUTOMATIC_REVIEW' },
      bubbles: true,
      composed: true,
      target: 'verify-identity',
    },
  ]);
});

test('follows the review to approval: events in order, the done slot, and no more reads afterwards', async ({
  page,
  stub,
  widget,
  kitApproves,
}) => {
  await page.goto(
    stub.page({
      attrs: FAST_START,
      inner: '<a slot="done" href="/elsewhere">Go to your account</a>',
    }),
  );
  await expect(title(widget)).toHaveText(en.awaitingTitle);
  const done = page.getByRole('link', { name: 'Go to your account' });
  await expect(done).toBeHidden();

  stub.setPhase('in_review', 'IN_MANUAL_REVIEW');
  await expect(title(widget)).toHaveText(en.reviewTitle);
  await kitApproves();
  await expect(done).toBeVisible();

  const seen = (await events(page)).map((e) => [e.type, e.detail]);
  expect(seen).toEqual([
    ['phase-change', { phase: 'awaiting_user', status: 'IN_AUTOMATIC_REVIEW' }],
    ['phase-change', { phase: 'in_review', status: 'IN_MANUAL_REVIEW' }],
    ['phase-change', { phase: 'approved', status: 'APPROVED' }],
    ['approved', { phase: 'approved', status: 'APPROVED' }],
  ]);

  // Final: no long-poll held, and none started later.
  await expect.poll(() => stub.inFlight).toBe(0);
  const reads = stub.calls('/identity/status').length;
  await page.waitForTimeout(300);
  expect(stub.calls('/identity/status')).toHaveLength(reads);
  expect(stub.inFlight).toBe(0);

  await done.click();
  await expect(page).toHaveURL(/\/elsewhere$/);
});

test('rejected: says so, emits rejected and stops following', async ({ page, stub, widget, openStarted }) => {
  await openStarted();
  stub.setPhase('rejected', 'REJECTED');
  await expect(title(widget)).toHaveText(en.rejectedTitle);
  await expect(widget.getByText(en.rejectedText)).toBeVisible();
  expect((await events(page)).filter((e) => e.type === 'rejected')).toEqual([
    {
      type: 'rejected',
      detail: { phase: 'rejected', status: 'REJECTED' },
      bubbles: true,
      composed: true,
      target: 'verify-identity',
    },
  ]);
  await expect.poll(() => stub.inFlight).toBe(0);
});

test('auto-start resumes the session bound to the browser session without a click', async ({
  stub,
  open,
}) => {
  stub.setPhase('in_review');
  stub.sessionCode = 'K7QM4XRT';
  stub.expiresAt = Date.now() + 60_000;
  await open({ attrs: FAST_START }, en.reviewTitle);
  expect(stub.calls('/identity/session')).toHaveLength(1);
  expect(stub.sentSession(0)).toEqual({ locale: 'en' });
  expect(stub.sessions).toBe(0);
});

test('expired: offers a new session, created with restart:true', async ({ page, stub, widget }) => {
  await page.goto(stub.page({ attrs: FAST_START }));
  await expect(shownCode(widget)).toHaveText('K7QM 4XRT');
  stub.setPhase('expired');
  await expect(title(widget)).toHaveText(en.expiredTitle);
  expect(await eventTypes(page)).toContain('expired');

  await widget.getByRole('button', { name: en.newSession }).click();
  await expect(title(widget)).toHaveText(en.awaitingTitle);
  expect(stub.sentSession(1)).toEqual({ restart: true, locale: 'en' });
  await expect(shownCode(widget)).toHaveText('P9WN 3HJE');
});

test('the time left ticks down, and at zero the element re-reads at once and shows expired', async ({
  page,
  stub,
  widget,
}) => {
  // No long-poll and a long poll interval: only the element's own clock can trigger the re-read.
  stub.longPoll = false;
  stub.sessionMs = 4_000;
  await page.goto(stub.page({ attrs: SLOW_START }));
  const time = widget.locator('[part~="time"]');
  await expect(time).toHaveText(/^Time left: [1-4] seconds?$/);
  await expect(time).toHaveClass('urgent');
  await expect(time).not.toHaveText((await time.textContent())!);
  await expect(title(widget)).toHaveText(en.expiredTitle);
  expect(stub.calls('/identity/status').length).toBeGreaterThanOrEqual(2);
});

test.describe('resubmission required', () => {
  test.beforeEach(async ({ stub, openStarted }) => {
    await openStarted();
    stub.setPhase('resubmission_required', 'RESUBMISSION_REQUIRED');
  });

  test('Continue shows the same QR and code again, without a new session', async ({ stub, widget }) => {
    await expect(title(widget)).toHaveText(en.resubmitTitle);
    await expect(widget.getByText(en.resubmitText)).toBeVisible();

    await widget.getByRole('button', { name: en.continue }).click();
    await expect(title(widget)).toHaveText(en.awaitingTitle);
    await expect(shownCode(widget)).toHaveText('K7QM 4XRT');
    expect(stub.calls('/identity/session')).toHaveLength(1);

    // The person sends the document again on the phone.
    stub.setPhase('in_review', 'IN_AUTOMATIC_REVIEW');
    await expect(title(widget)).toHaveText(en.reviewTitle);
  });

  test('Start again asks the kit for a new session with restart:true', async ({ stub, widget }) => {
    await widget.getByRole('button', { name: en.restart }).click();
    await expect(shownCode(widget)).toHaveText('P9WN 3HJE');
    expect(stub.sentSession(1)).toEqual({
      restart: true,
      locale: 'en',
    });
  });
});

test('a slow start shows the busy state until the kit answers', async ({ page, stub, widget }) => {
  let release = () => {};
  stub.sessionReplies.push({ hold: new Promise<void>((resolve) => (release = resolve)) });
  await page.goto(stub.page({ attrs: FAST }));
  await page.getByRole('button', { name: en.start }).click();
  await expect(title(widget)).toHaveText(en.startingTitle);
  await expect(widget.getByRole('button')).toHaveCount(0);
  release();
  await expect(title(widget)).toHaveText(en.awaitingTitle);
});

const failures: { name: string; reply?: Reply; unreachable?: boolean; code: string; message: string }[] = [
  {
    name: 'the service is down (503)',
    reply: {
      status: 503,
      // A long outage announced: shown at once (a short 503 is asked again first).
      headers: { 'retry-after': '120' },
      body: { error: { code: 'UPSTREAM_UNAVAILABLE', message: 'upstream said: SECRET detail' } },
    },
    code: 'UPSTREAM_UNAVAILABLE',
    message: en.errorUnavailable,
  },
  {
    name: 'a proxy answers HTML (502)',
    reply: { status: 502, headers: { 'content-type': 'text/html' }, body: '<h1>SECRET Bad Gateway</h1>' },
    code: 'HTTP_502',
    message: en.errorUnavailable,
  },
  { name: 'no network', unreachable: true, code: 'NETWORK_ERROR', message: en.errorNetwork },
  {
    name: 'rate limited (429)',
    reply: {
      status: 429,
      headers: { 'retry-after': '30' },
      body: { error: { code: 'RATE_LIMITED', message: 'SECRET' } },
    },
    code: 'RATE_LIMITED',
    message: en.errorBusy,
  },
  {
    name: 'refused (403)',
    reply: { status: 403, body: { error: { code: 'CROSS_SITE_REQUEST', message: 'SECRET' } } },
    code: 'CROSS_SITE_REQUEST',
    message: en.errorGeneric,
  },
  {
    name: 'a 2xx without a phase',
    reply: { status: 201, body: { SECRET: true } },
    code: 'BAD_RESPONSE',
    message: en.errorGeneric,
  },
];

for (const failure of failures) {
  test(`a failed start (${failure.name}) shows a human message and a retry, never the body`, async ({
    page,
    stub,
    widget,
  }) => {
    if (failure.reply) stub.sessionReplies.push(failure.reply);
    stub.unreachable = !!failure.unreachable;
    await page.goto(stub.page({ attrs: FAST }));
    await page.getByRole('button', { name: en.start }).click();
    await expect(title(widget)).toHaveText(en.errorTitle);
    await expect(widget.getByText(failure.message)).toBeVisible();
    await expect(widget).not.toContainText('SECRET');
    expect((await events(page)).filter((e) => e.type === 'verify-identity-error')).toEqual([
      {
        type: 'verify-identity-error',
        detail: { code: failure.code, message: failure.message },
        bubbles: true,
        composed: true,
        target: 'verify-identity',
      },
    ]);

    stub.unreachable = false;
    await widget.getByRole('button', { name: en.retry }).click();
    await expect(title(widget)).toHaveText(en.awaitingTitle);
  });
}

test('a session that the kit no longer knows (404 on /status) ends in an error with a retry', async ({
  page,
  stub,
  widget,
  open,
}) => {
  stub.statusReplies.push({ status: 404, body: { error: { code: 'NO_SESSION', message: 'none' } } });
  await open({ attrs: FAST_START }, en.errorTitle);
  await expect(widget.getByText(en.errorNoSession)).toBeVisible();
  expect((await events(page)).at(-1)).toMatchObject({
    type: 'verify-identity-error',
    detail: { code: 'NO_SESSION' },
  });
  await widget.getByRole('button', { name: en.retry }).click();
  await expect(title(widget)).toHaveText(en.awaitingTitle);
});

test.describe('the deep link', () => {
  const box = async (locator: import('@playwright/test').Locator) => (await locator.boundingBox())!;

  test('is not offered on a desktop (a dead end without the app): the QR and the web page are', async ({
    page,
    stub,
    widget,
  }) => {
    await page.goto(stub.page({ attrs: FAST_START }));
    await expect(widget.getByRole('img', { name: en.qrAlt })).toBeVisible();
    await expect(widget.getByRole('link', { name: en.webPage })).toBeVisible();
    await expect(widget.getByRole('link', { name: en.openApp })).toBeHidden();
    await expect(widget.getByText(en.awaitingText)).toBeVisible();
  });

  test('a link of a dangerous scheme is never rendered as one: parsed, not pattern-matched', async ({
    page,
    stub,
    widget,
  }) => {
    stub.links = {
      deepLink: ' JavaScript:alert(1)//',
      sessionPageLink: 'data:text/html,<script>alert(1)</script>',
    };
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(stub.page({ attrs: FAST_START }));
    await expect(widget.getByRole('link', { name: en.openApp })).toHaveAttribute('href', '#');
    await expect(widget.getByRole('link', { name: en.webPage })).toHaveAttribute('href', '#');
  });

  test('is the primary action on a phone-sized screen: above the QR, filled', async ({
    page,
    stub,
    widget,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(stub.page({ attrs: FAST_START }));
    const link = widget.getByRole('link', { name: en.openApp });
    const qr = widget.getByRole('img', { name: en.qrAlt });
    await expect(link).toBeVisible();
    expect((await box(link)).y).toBeLessThan((await box(qr)).y);
    await expect(link).toHaveCSS('background-color', 'rgb(11, 87, 208)');
    await expect(widget.getByRole('link', { name: en.webPage })).toHaveAttribute(
      'href',
      stub.sessionBody().sessionPageLink,
    );
  });

  test.describe('on a touch screen', () => {
    test.use({ hasTouch: true, isMobile: false, viewport: { width: 1024, height: 768 } });
    test('is the primary action too', async ({ page, stub, widget }) => {
      await page.goto(stub.page({ attrs: FAST_START }));
      expect(await page.evaluate(() => matchMedia('(pointer: coarse)').matches)).toBe(true);
      await expect(widget.getByRole('link', { name: en.openApp })).toHaveCSS(
        'background-color',
        'rgb(11, 87, 208)',
      );
    });
  });
});
