import type { Locator, Page } from '@playwright/test';
import { ar } from '../src/strings.ar.js';
import { en } from '../src/strings.en.js';
import { ARTIFACTS, expect, expectNoAxeViolations, FAST_START, shownCode, test, title } from './fixtures.js';

const box = async (locator: Locator) => (await locator.boundingBox())!;

/** Which half of the card the Copy button sits in. */
async function copySide(widget: Locator): Promise<'left' | 'right'> {
  const card = await box(widget.locator('[part~="base"]'));
  const copy = await box(widget.locator('[part~="copy"]'));
  return copy.x + copy.width / 2 < card.x + card.width / 2 ? 'left' : 'right';
}

async function noSidewaysScroll(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
}

for (const [device, viewport] of [
  ['phone', { width: 390, height: 844 }],
  ['desktop', { width: 1024, height: 768 }],
] as const) {
  test(`Arabic on a ${device}: right to left, mirrored, the code and the QR left to right, axe clean`, async ({
    page,
    widget,
    open,
  }) => {
    await page.setViewportSize(viewport);
    await open({ attrs: FAST_START, lang: 'ar' }, ar.awaitingTitle);
    await expect(widget).toHaveAttribute('dir', 'rtl');
    await expect(widget.locator('[part~="base"]')).toHaveAttribute('lang', 'ar');
    await expect(widget.locator('[part~="base"]')).toHaveCSS('direction', 'rtl');
    // The layout mirrors: the first item of a row starts on the right.
    expect(await copySide(widget)).toBe('right');
    // The code reads left to right, as the app shows it.
    await expect(shownCode(widget)).toHaveText('K7QM 4XRT');
    await expect(shownCode(widget)).toHaveCSS('direction', 'ltr');
    // The QR is an image: never flipped.
    await expect(widget.getByRole('img', { name: ar.qrAlt })).toHaveCSS('transform', 'none');
    expect(await noSidewaysScroll(page)).toBe(true);
    await expectNoAxeViolations(page, `awaiting_user (ar, ${device})`);
    await widget.screenshot({ path: `${ARTIFACTS}awaiting_user-ar-${device}.png` });
  });
}

test('English keeps left to right, and a switch to Arabic and back mirrors and restores', async ({
  widget,
  open,
}) => {
  await open({ attrs: FAST_START, lang: 'en' }, en.awaitingTitle);
  await expect(widget).toHaveAttribute('dir', 'ltr');
  expect(await copySide(widget)).toBe('left');
  await widget.evaluate((el) => el.setAttribute('locale', 'ar'));
  await expect(title(widget)).toHaveText(ar.awaitingTitle);
  expect(await copySide(widget)).toBe('right');
  await widget.evaluate((el) => el.setAttribute('locale', 'en'));
  await expect(title(widget)).toHaveText(en.awaitingTitle);
  await expect(widget).toHaveAttribute('dir', 'ltr');
});
