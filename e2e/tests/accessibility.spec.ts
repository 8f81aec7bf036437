import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.js';

/*
 * Issue 13: what a person on a phone, on a keyboard or in dark mode relies on. axe runs inside real
 * Chromium over the demo's pages and the phone simulator framed in them.
 */

async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  return results.violations.map(
    (v) => `${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} (${n.failureSummary ?? ''})`).join(', ')}`,
  );
}

/** How far the page scrolls sideways (0: not at all). */
const sidewaysScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

for (const colorScheme of ['light', 'dark'] as const) {
  test(`no axe violations (contrast included) in ${colorScheme} mode, phone simulator included`, async ({
    page,
    site,
  }) => {
    await page.emulateMedia({ colorScheme });
    await page.goto('/');
    expect(await axeViolations(page)).toEqual([]);
    await site.signIn();
    await expect(site.phone.getByTestId('step-document')).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
    // Manual review: the reviewer's buttons beside the phone.
    await site.submitDocument({ scenario: 'manual_review' });
    await expect(site.reviewer()).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
    // The playground, with a refused field's message beside it.
    await site.openPlayground();
    await page.getByLabel('Duration in minutes (1 to 1440)').fill('0');
    await page.getByRole('button', { name: 'Save only' }).click();
    await expect(page.getByLabel('Duration in minutes (1 to 1440)')).toHaveAttribute('aria-invalid', 'true');
    expect(await axeViolations(page)).toEqual([]);
  });
}

test('at 390 px wide nothing scrolls sideways: verify with its activity table, and the playground', async ({
  page,
  site,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await site.signIn();
  await expect(page.locator('#activity tr').first()).toBeVisible();
  expect(await sidewaysScroll(page)).toBe(0);
  await site.openPlayground();
  await expect(page.getByRole('button', { name: 'Save and run' })).toBeVisible();
  expect(await sidewaysScroll(page)).toBe(0);
});

test('the skip link is the first stop of the keyboard and leads to the content', async ({ page }) => {
  await page.goto('/');
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to the content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#main$/);
});

test('repeated status reads show as one row with a count', async ({ page, site }) => {
  await site.signIn();
  await site.expectPhase('awaiting_user');
  for (let i = 0; i < 3; i++) expect((await site.apiGet('/api/demo/account')).status()).toBe(403);
  await expect(page.locator('#activity')).toContainText(/Status read, kit → service ×\d+/);
});
