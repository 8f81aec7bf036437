import type { Locator, Page } from '@playwright/test';
import { en } from '../src/strings.en.js';
import { ARTIFACTS, expect, expectNoAxeViolations, test, title } from './fixtures.js';
import type { StubServer } from './stub-server.js';

/** Walks the element through every state, calling `check` in each. */
async function walkAllStates(
  page: Page,
  stub: StubServer,
  widget: Locator,
  check: (state: string) => Promise<void>,
): Promise<void> {
  await page.goto(
    stub.page({
      attrs: 'endpoint="/identity" poll-interval="50"',
      inner: '<a slot="done" href="/elsewhere">Go to your account</a>',
    }),
  );
  await expect(title(widget)).toHaveText(en.idleTitle);
  await check('idle');

  let release = () => {};
  stub.sessionReplies.push({ hold: new Promise<void>((resolve) => (release = resolve)) });
  await page.getByRole('button', { name: en.start }).click();
  await expect(title(widget)).toHaveText(en.startingTitle);
  await check('starting');
  release();

  await expect(title(widget)).toHaveText(en.awaitingTitle);
  await expect
    .poll(() => widget.getByRole('img').evaluate((img: HTMLImageElement) => img.complete))
    .toBe(true);
  await check('awaiting_user');

  const phases = [
    ['resubmission_required', 'RESUBMISSION_REQUIRED', en.resubmitTitle],
    ['in_review', 'IN_AUTOMATIC_REVIEW', en.reviewTitle],
    ['in_manual_review', 'IN_MANUAL_REVIEW', en.manualTitle],
    ['rejected', 'REJECTED', en.rejectedTitle],
  ] as const;
  for (const [phase, status, text] of phases) {
    stub.setPhase(phase, status);
    await expect(title(widget)).toHaveText(text);
    await check(phase);
  }

  await widget.evaluate((el: HTMLElement & { start(restart?: boolean): Promise<void> }) => el.start(true));
  await expect(title(widget)).toHaveText(en.awaitingTitle);
  stub.setPhase('expired');
  await expect(title(widget)).toHaveText(en.expiredTitle);
  await check('expired');

  await widget.getByRole('button', { name: en.newSession }).click();
  await expect(title(widget)).toHaveText(en.awaitingTitle);
  stub.setPhase('approved', 'APPROVED');
  await expect(title(widget)).toHaveText(en.approvedTitle);
  await check('approved');

  stub.sessionReplies.push({
    status: 503,
    // A long outage announced: shown at once (a short 503 is asked again first).
    headers: { 'retry-after': '120' },
    body: { error: { code: 'UPSTREAM_UNAVAILABLE', message: 'down' } },
  });
  await widget.evaluate((el: HTMLElement & { start(): Promise<void> }) => el.start());
  await expect(title(widget)).toHaveText(en.errorTitle);
  await check('error');
}

for (const scheme of ['light', 'dark'] as const) {
  test(`${scheme}: every state passes axe-core and is saved as a screenshot`, async ({
    page,
    stub,
    widget,
  }) => {
    test.slow();
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    const seen: string[] = [];
    await walkAllStates(page, stub, widget, async (state) => {
      seen.push(state);
      await expectNoAxeViolations(page, `${state} (${scheme})`);
      await widget.screenshot({ path: `${ARTIFACTS}${state}-${scheme}.png`, animations: 'disabled' });
    });
    expect(seen).toHaveLength(10);
  });
}

test('a phone-sized screen passes axe-core too, and is saved as a screenshot', async ({
  page,
  widget,
  open,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await open({ attrs: 'endpoint="/identity" auto-start' }, en.awaitingTitle);
  await expectNoAxeViolations(page, 'awaiting_user (phone)');
  await widget.screenshot({ path: `${ARTIFACTS}awaiting_user-phone.png` });
});

test('every status change is announced through a polite live region', async ({ page, stub, widget }) => {
  await page.goto(stub.page({ attrs: 'endpoint="/identity" poll-interval="50" auto-start' }));
  const live = widget.locator('[part~="base"] > [role="status"]');
  await expect(live).toHaveText(en.awaitingTitle);
  // role=status is aria-live=polite and aria-atomic=true by definition; the same node is updated.
  const node = await live.elementHandle();
  stub.setPhase('in_review');
  await expect(live).toHaveText(en.reviewTitle);
  stub.setPhase('approved', 'APPROVED');
  await expect(live).toHaveText(en.approvedTitle);
  expect(await node?.evaluate((el) => el.isConnected)).toBe(true);
});

/** The focused element inside the widget's shadow root: its part and text. */
function focused(page: Page): Promise<{ part: string; text: string; outline: string } | null> {
  return page.evaluate(() => {
    const host = document.activeElement;
    const el = host?.shadowRoot?.activeElement;
    if (!el) return null;
    const style = getComputedStyle(el);
    return {
      part: el.getAttribute('part') ?? '',
      text: el.textContent?.trim() ?? '',
      outline: `${style.outlineStyle} ${style.outlineWidth}`,
    };
  });
}

test('the focus ring follows a themed accent, unless it is themed itself', async ({ page, widget, open }) => {
  await open({ attrs: 'endpoint="/identity"' }, en.idleTitle);
  const ringOf = async (property: string, value: string) => {
    await widget.evaluate((el, [p, v]) => (el as HTMLElement).style.setProperty(p!, v!), [property, value]);
    await widget.getByRole('button', { name: en.start }).focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    return page.evaluate(
      () => getComputedStyle(document.activeElement!.shadowRoot!.activeElement!).outlineColor,
    );
  };
  expect(await ringOf('--verify-identity-accent', 'rgb(200, 0, 0)')).toBe('rgb(200, 0, 0)');
  expect(await ringOf('--verify-identity-focus-ring', 'rgb(0, 90, 0)')).toBe('rgb(0, 90, 0)');
});

test('keyboard only: start, open, copy, continue, start over and retry, with a visible focus', async ({
  page,
  context,
  stub,
  widget,
  open,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stub.url });
  await open({ attrs: 'endpoint="/identity" poll-interval="50"' }, en.idleTitle);

  await page.keyboard.press('Tab');
  expect(await focused(page)).toEqual({ part: 'button start', text: en.start, outline: 'solid 3px' });
  await page.keyboard.press('Enter');
  await expect(title(widget)).toHaveText(en.awaitingTitle);
  // Focus moves into the new view, to its first action, instead of being lost with the old button.
  // On a desktop that is Copy: the deep link is for phones and touch screens.
  await expect.poll(() => focused(page)).toMatchObject({ part: 'button copy', outline: 'solid 3px' });
  await page.keyboard.press('Enter');
  await expect(widget.getByText(en.copied)).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('K7QM4XRT');

  stub.setPhase('resubmission_required', 'RESUBMISSION_REQUIRED');
  await expect(title(widget)).toHaveText(en.resubmitTitle);
  await expect.poll(() => focused(page)).toMatchObject({ text: en.continue });
  await page.keyboard.press('Enter');
  await expect(title(widget)).toHaveText(en.awaitingTitle);

  stub.setPhase('expired');
  await expect(title(widget)).toHaveText(en.expiredTitle);
  await expect.poll(() => focused(page)).toMatchObject({ text: en.newSession });
  stub.sessionReplies.push({
    status: 503,
    // A long outage announced: shown at once (a short 503 is asked again first).
    headers: { 'retry-after': '120' },
    body: { error: { code: 'UPSTREAM_UNAVAILABLE', message: 'down' } },
  });
  await page.keyboard.press('Enter');
  await expect(title(widget)).toHaveText(en.errorTitle);
  await expect.poll(() => focused(page)).toMatchObject({ part: 'button retry', text: en.retry });
  await page.keyboard.press('Enter');
  await expect(title(widget)).toHaveText(en.awaitingTitle);
  await expect(widget.locator('[part~="code"] [aria-hidden="true"]')).toHaveText('P9WN 3HJE');
});
