import type { Page } from 'playwright-core';
import { qrPainted, withContext } from '../harness/chromium.js';
import { withStack } from '../harness/stack.js';
import { summarize } from '../stats.js';
import type { Bench } from './bench.js';

const WARMUP = 3;
const RUNS = 25;

/**
 * Clicks Start in the page, waits for the QR to be decoded and painted (the context's QR watcher,
 * harness/chromium.ts), and reads the page's clock: ms after the click.
 */
async function clickToQr(page: Page) {
  const clickedAt = await page.evaluate(async () => {
    await customElements.whenDefined('verify-identity');
    const host = document.querySelector('verify-identity') as HTMLElement & {
      updateComplete: Promise<unknown>;
    };
    await host.updateComplete;
    const start = host.shadowRoot!.querySelector<HTMLButtonElement>('[part~="start"]');
    if (!start) throw new Error('no Start button in <verify-identity>');
    const t0 = performance.now();
    start.click();
    return t0;
  });
  const { decodedMs, paintedMs } = await qrPainted(page);
  const after = await page.evaluate((t0) => {
    const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    return entries.filter((e) => e.startTime >= t0).map((e) => ({ ...e.toJSON() }));
  }, clickedAt);
  const session = after.filter((e) => e.name.includes('/identity/session')).pop();
  return {
    decodedMs: decodedMs - clickedAt,
    nextFrameMs: paintedMs - clickedAt,
    /** Where the time went: the response end of POST /session (the QR rides in it). */
    sessionMs: session ? session.responseEnd - clickedAt : -1,
    /** Requests for an image after the click: 0, the QR is a data: URL of the answer. */
    imageRequests: after.filter((e) => e.initiatorType === 'img').length,
  };
}

export const bench: Bench = {
  timeoutMs: 120_000,
  async run({ browser }) {
    const chromium = await browser();
    return withStack({}, async (stack) => {
      const timings: Awaited<ReturnType<typeof clickToQr>>[] = [];
      await withContext(chromium, { watchQr: true }, async (context) => {
        const page = await context.newPage();
        for (let i = 0; i < WARMUP + RUNS; i++) {
          // No cookie: each click creates a new browser session and a new upstream session.
          await context.clearCookies();
          await page.goto(stack.appUrl, { waitUntil: 'load' });
          const timing = await clickToQr(page);
          if (i >= WARMUP) timings.push(timing);
        }
      });
      const decoded = timings.map((t) => t.decodedMs);
      return {
        figures: { 'ui.clickToQrMs': { ...summarize(decoded) } },
        details: {
          measuredTo: 'img.decode() resolved, naturalWidth > 0 (performance.now() in the page)',
          toNextFrameMs: summarize(timings.map((t) => t.nextFrameMs)),
          sessionResponseEndMs: summarize(timings.map((t) => t.sessionMs)),
          imageRequestsAfterClick: Math.max(...timings.map((t) => t.imageRequests)),
          warmupRuns: WARMUP,
          samplesMs: decoded.map((v) => Math.round(v * 10) / 10),
        },
      };
    });
  },
};
