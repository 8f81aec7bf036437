import { expect, test } from '@playwright/test';
import { type DocsSite, serveDocs } from '../support/docs-site.js';

// The documentation site, built, in Chromium: every page renders with no console error, every
// internal link and anchor resolves, and the search finds an option by its name.

test.describe.configure({ mode: 'serial' });

let site: DocsSite;
/** What each page holds once rendered: the internal links it makes and the ids it has. */
const rendered = new Map<string, { links: string[]; ids: string[] }>();

test.beforeAll(async () => {
  test.setTimeout(180_000); // a build, when the site's sources changed since the last one
  site = await serveDocs();
});

test.afterAll(async () => {
  await site?.close();
});

test('every page renders with no console error', async ({ page }) => {
  test.setTimeout(60_000);
  expect(site.pages.length).toBeGreaterThanOrEqual(14);
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${page.url()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) errors.push(`${response.url()}: ${response.status()}`);
  });
  for (const path of site.pages) {
    const response = await page.goto(`${site.url}${path}`);
    expect(response?.status(), path).toBe(200);
    await expect(page.locator('h1').first(), path).toBeVisible();
    // Hydrated: Vue has mounted VitePress's app on the server-rendered page.
    await page.waitForFunction(() => '__vue_app__' in (document.querySelector('#app') ?? {}));
    const links = await page.$$eval('a[href]', (anchors) =>
      anchors.map((anchor) => (anchor as HTMLAnchorElement).href),
    );
    const ids = await page.$$eval('[id]', (elements) => elements.map((element) => element.id));
    rendered.set(path, { links: links.filter((href) => href.startsWith(site.url)), ids });
  }
  expect(errors).toEqual([]);
});

test('every internal link and anchor resolves', () => {
  expect(rendered.size).toBe(site.pages.length);
  const broken: string[] = [];
  for (const [from, { links }] of rendered) {
    for (const href of new Set(links)) {
      const url = new URL(href);
      const path = url.pathname === '/index.html' ? '/' : url.pathname;
      const target = rendered.get(path) ?? rendered.get(`${path}.html`);
      if (target === undefined) {
        broken.push(`${from} -> ${url.pathname}: no such page`);
        continue;
      }
      const anchor = decodeURIComponent(url.hash.slice(1));
      if (anchor !== '' && !target.ids.includes(anchor))
        broken.push(`${from} -> ${url.pathname}${url.hash}: no such anchor`);
    }
  }
  expect(broken).toEqual([]);
});

test('the search finds an option by its name', async ({ page }) => {
  await page.goto(`${site.url}/`);
  await page.getByRole('button', { name: 'Search' }).click();
  await page.locator('#localsearch-input').fill('staleIfErrorMs');
  // The option's own entry among the results (pages that mention it may be listed too).
  const result = page.locator('.VPLocalSearchBox a.result[href$="options.html#staleiferrorms"]');
  await expect(result).toContainText('staleIfErrorMs');
  await result.click();
  await expect(page).toHaveURL(/\/options\.html#staleiferrorms$/);
  await expect(page.locator('h3#staleiferrorms')).toBeInViewport();
});
