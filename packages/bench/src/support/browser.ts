import { type Browser, type BrowserContext, chromium } from 'playwright-core';

/** Debian's Chromium (or CHROMIUM_PATH), headless, with the flags of the repository's browser tests. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * A fresh context (no cookies). tsx (esbuild, keepNames) wraps named functions in `__name(...)`; the
 * functions we hand to page.evaluate carry that call into the page, so the page gets a no-op one.
 */
export async function newContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext();
  await context.addInitScript('globalThis.__name = (target) => target;');
  return context;
}
