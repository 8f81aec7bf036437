import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.js';
import { newPerson } from '../support/flow.js';

/*
 * Issue 15: the sign-in page's ?returnTo must never send a person to another site. Browsers strip
 * TAB, CR and LF from URLs, so `/\t/evil.example` would become `//evil.example`; a backslash reads
 * as a slash. Each variant is followed by real Chromium after a real sign-in.
 */

const ATTACKS = [
  '/%09/evil.example',
  '/%0a/evil.example',
  '/%0d/evil.example',
  '/%0d%0a/evil.example',
  '/%5Cevil.example',
  '/%5C%5Cevil.example',
  '//evil.example',
  'https://evil.example/',
  '/%00/evil.example',
];

test.beforeEach(async ({ context }) => {
  // Were the redirect to escape, the browser would land here (and the test would see it).
  await context.route(
    (url) => url.hostname.endsWith('evil.example'),
    (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<h1>evil</h1>' }),
  );
});

async function signInFrom(page: Page, query: string): Promise<URL> {
  const person = newPerson();
  await page.goto(`/?returnTo=${query}`);
  await page.getByLabel('Name').fill(person.name);
  await page.getByLabel('E-mail').fill(person.email);
  await page.getByRole('button', { name: 'Sign in with the demo account' }).click();
  await page.waitForURL((url) => url.hostname.endsWith('evil.example') || url.pathname !== '/');
  return new URL(page.url());
}

for (const attack of ATTACKS) {
  test(`returnTo=${attack} stays on the demo`, async ({ page, demo }) => {
    const landed = await signInFrom(page, attack);
    expect(landed.origin).toBe(new URL(demo.url).origin);
    expect(landed.pathname).toBe('/verify');
  });
}

test('a same-origin returnTo is followed', async ({ page, demo }) => {
  const landed = await signInFrom(page, encodeURIComponent('/playground?from=sign-in'));
  expect(landed.origin).toBe(new URL(demo.url).origin);
  expect(`${landed.pathname}${landed.search}`).toBe('/playground?from=sign-in');
});
