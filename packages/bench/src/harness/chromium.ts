import { CHROMIUM_ARGS, chromiumExecutable } from '@verify-kit/testkit/chromium';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

/** Debian's Chromium (or CHROMIUM_PATH), headless, with the flags of the repository's browser tests. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumExecutable(), headless: true, args: CHROMIUM_ARGS });
}

/**
 * `run` in a fresh context (no cookies), closed after, whatever happens. tsx (esbuild, keepNames)
 * wraps named functions in `__name(...)`; the functions we hand to page.evaluate carry that call into
 * the page, so the page gets a no-op one. `watchQr`: every page of it notes when its QR was painted
 * (watchForQr, qrPainted).
 */
export async function withContext<T>(
  browser: Browser,
  { watchQr = false }: { watchQr?: boolean },
  run: (context: BrowserContext) => Promise<T>,
): Promise<T> {
  const context = await browser.newContext();
  try {
    await context.addInitScript('globalThis.__name = (target) => target;');
    if (watchQr) await context.addInitScript(watchForQr);
    return await run(context);
  } finally {
    await context.close();
  }
}

/** When the page's QR was decoded, and painted (the next frame after), in its performance.now(). */
export interface QrTimes {
  decodedMs: number;
  paintedMs: number;
}

/**
 * Runs in every page before its own scripts: watches the document and every shadow root attached
 * later (the widget's) for an <img> with a source, waits for img.decode() and the next frame, and
 * notes the times. The same watcher for the widget and for its limit.
 */
function watchForQr(): void {
  const w = window as unknown as { __qr?: QrTimes };
  let seen = false;
  const found = async (img: HTMLImageElement) => {
    seen = true;
    await img.decode();
    const decodedMs = performance.now();
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    if (img.naturalWidth > 0) w.__qr = { decodedMs, paintedMs: performance.now() };
  };
  const observe = (root: Document | ShadowRoot) => {
    const observer = new MutationObserver(() => {
      const img = root.querySelector<HTMLImageElement>('img[src]');
      if (img && !seen) {
        observer.disconnect();
        void found(img);
      }
    });
    observer.observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: ['src'] });
  };
  const attachShadow = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (this: Element, init: ShadowRootInit) {
    const root = attachShadow.call(this, init);
    observe(root);
    return root;
  };
  observe(document);
}

/** Once the page of a `watchQr` context has painted its QR: when. */
export async function qrPainted(page: Page, timeout = 30_000): Promise<QrTimes> {
  const times = await page.waitForFunction(() => (window as { __qr?: QrTimes }).__qr, undefined, {
    polling: 100,
    timeout,
  });
  return (await times.jsonValue()) as QrTimes;
}
