import { CHROMIUM_ARGS, chromiumExecutable } from '@verify-kit/testkit/chromium';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';

/** Debian's Chromium (or CHROMIUM_PATH), headless, with the flags of the repository's browser tests. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumExecutable(), headless: true, args: CHROMIUM_ARGS });
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
