import type { Page } from 'playwright-core';
import { qrPainted, withContext } from '../harness/chromium.js';
import { setLimitAnswer } from '../harness/qr-limit.js';
import { withStack } from '../harness/stack.js';
import { interleave, median, round, summarize } from '../stats.js';
import type { Bench } from './bench.js';

const WARMUP = 3;
const ROUNDS = 25;

/** The widget's Start (in its shadow root), or the limit page's button. */
type Start = 'widget' | 'limit';

/**
 * Clicks Start in the page, waits for the QR to be decoded and painted (the context's QR watcher,
 * harness/chromium.ts), and reads the page's clock: ms after the click.
 */
async function clickToQr(page: Page, start: Start) {
  const clickedAt = await page.evaluate(async (start) => {
    let button: HTMLButtonElement | null;
    if (start === 'widget') {
      await customElements.whenDefined('verify-identity');
      const host = document.querySelector('verify-identity') as HTMLElement & {
        updateComplete: Promise<unknown>;
      };
      await host.updateComplete;
      button = host.shadowRoot!.querySelector<HTMLButtonElement>('[part~="start"]');
    } else {
      button = document.querySelector('button');
    }
    if (!button) throw new Error(`no Start button on the ${start} page`);
    const t0 = performance.now();
    button.click();
    return t0;
  }, start);
  const { decodedMs, paintedMs } = await qrPainted(page);
  const after = await page.evaluate((t0) => {
    const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    return entries.filter((e) => e.startTime >= t0).map((e) => ({ ...e.toJSON() }));
  }, clickedAt);
  const session = after.filter((e) => e.name.includes('/session')).pop();
  return {
    decodedMs: decodedMs - clickedAt,
    nextFrameMs: paintedMs - clickedAt,
    /** Where the time went: the response end of the session's POST (the QR rides in it). */
    sessionMs: session ? session.responseEnd - clickedAt : -1,
    /** Requests for an image after the click: 0, the QR is a data: URL of the answer. */
    imageRequests: after.filter((e) => e.initiatorType === 'img').length,
  };
}
type Timing = Awaited<ReturnType<typeof clickToQr>>;

const timingsOf = (runs: readonly Timing[]) => ({
  decodedMs: summarize(runs.map((t) => t.decodedMs)),
  toNextFrameMs: summarize(runs.map((t) => t.nextFrameMs)),
  sessionResponseEndMs: summarize(runs.map((t) => t.sessionMs)),
});

/**
 * From the click on Start to the QR decoded, on the widget's page (`/`: a new browser session each
 * time, so each click creates a session through the kit and upstream) and on its physical limit
 * (`/bench/click-limit`, harness/qr-limit.ts: a button whose click POSTs for a real session answer of
 * the kit, as many bytes, and paints its QR, the same SVG), in one Chromium, rounds interleaved
 * (which page goes first alternating); the figure is the median of the per-round ratios.
 */
export const bench: Bench = {
  timeoutMs: 150_000,
  async run({ browser }) {
    const chromium = await browser();
    return withStack({}, async (stack) => {
      const answer = await setLimitAnswer(stack.appUrl);
      return withContext(chromium, { watchQr: true }, async (context) => {
        const page = await context.newPage();
        const once = (start: Start) => async () => {
          // No cookie: each click on the widget creates a new browser session and upstream session.
          await context.clearCookies();
          await page.goto(`${stack.appUrl}${start === 'widget' ? '/' : '/bench/click-limit'}`, {
            waitUntil: 'load',
          });
          return clickToQr(page, start);
        };
        for (let i = 0; i < WARMUP; i++)
          for (const start of ['widget', 'limit'] as const) await once(start)();
        const [widget, limit] = (await interleave(ROUNDS, [once('widget'), once('limit')])) as [
          Timing[],
          Timing[],
        ];
        const ratios = widget.map((w, i) => w.decodedMs / limit[i]!.decodedMs);
        return {
          figures: {
            'ui.clickToQr': {
              median: round(median(widget.map((t) => t.decodedMs)), 1),
              limitMedian: round(median(limit.map((t) => t.decodedMs)), 1),
              vsLimit: round(median(ratios)),
            },
          },
          details: {
            measuredTo: 'img.decode() resolved, naturalWidth > 0 (performance.now() in the page)',
            vsLimit: 'median of the per-round ratios (widget ÷ limit), rounds interleaved',
            sessionAnswerBytes: Buffer.byteLength(answer),
            widget: timingsOf(widget),
            limit: timingsOf(limit),
            imageRequestsAfterClick: Math.max(...widget.map((t) => t.imageRequests)),
            warmupRounds: WARMUP,
            ratios: ratios.map((r) => round(r, 3)),
          },
        };
      });
    });
  },
};
