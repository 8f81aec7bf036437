import { type BrowserContext, test as base, expect } from '@playwright/test';
import { DemoSite } from './flow.js';
import { LeakWatch } from './leak-watch.js';
import type { SandboxControl } from './sandbox-control.js';

/** Another browser context of the test: its own `baseURL` (default the demo's), its responses watched for `apiKey`. */
export type NewContext = (options?: { baseURL?: string; apiKey?: string }) => Promise<BrowserContext>;

export interface DemoUnderTest {
  url: string;
  sandbox: SandboxControl;
}

function demoFromEnv(): DemoUnderTest {
  const url = process.env.E2E_DEMO_URL;
  const sandboxUrl = process.env.E2E_SANDBOX_URL;
  const apiKey = process.env.E2E_SANDBOX_API_KEY;
  if (!url || !sandboxUrl || !apiKey)
    throw new Error('the global setup did not start the demo (E2E_DEMO_URL unset)');
  return { url, sandbox: { url: sandboxUrl, apiKey } };
}

/**
 * Every test gets the shared demo, its page as a person uses it (`site`), and a watch on every
 * response its browser context receives: after the test, not one of them may contain the API key.
 */
export const test = base.extend<{
  demo: DemoUnderTest;
  site: DemoSite;
  newContext: NewContext;
  leakWatch: LeakWatch;
}>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright's fixture signature
  demo: async ({}, use) => {
    await use(demoFromEnv());
  },
  baseURL: async ({ demo }, use) => {
    await use(demo.url);
  },
  site: async ({ page }, use) => {
    await use(new DemoSite(page));
  },
  // A new browser session (the same browser started again), or a browser on another demo: watched
  // like the test's own context, and closed after it (a test may close it earlier itself).
  newContext: async ({ browser, demo }, use) => {
    const opened: { context: BrowserContext; watch: LeakWatch; pages: number }[] = [];
    await use(async ({ baseURL = demo.url, apiKey = demo.sandbox.apiKey } = {}) => {
      const context = await browser.newContext({ baseURL });
      const entry = { context, watch: new LeakWatch(context, [apiKey]), pages: 0 };
      context.on('page', () => {
        entry.pages += 1;
      });
      opened.push(entry);
      return context;
    });
    for (const { context, watch, pages } of opened) {
      for (const page of context.pages()) await page.close();
      const leaks = await watch.settle();
      await context.close();
      if (pages > 0) expect(watch.checked, 'responses checked for the API key').toBeGreaterThan(0);
      expect(leaks, 'responses that carried the API key').toEqual([]);
    }
  },
  leakWatch: [
    async ({ context, demo }, use) => {
      const watch = new LeakWatch(context, [demo.sandbox.apiKey]);
      let pagesOpened = 0;
      context.on('page', () => {
        pagesOpened += 1;
      });
      await use(watch);
      // Close the pages first so open long-polls end instead of being waited for.
      for (const page of context.pages()) await page.close();
      const leaks = await watch.settle();
      // A test that used the browser must have had its responses checked (the watch cannot pass idle).
      if (pagesOpened > 0) expect(watch.checked, 'responses checked for the API key').toBeGreaterThan(0);
      expect(leaks, 'responses that carried the API key').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
