import { newContext } from '../harness/chromium.js';
import { startStack } from '../harness/stack.js';
import { summarize } from '../stats.js';
import type { Bench } from './bench.js';

const WARMUP = 3;
const RUNS = 25;

interface Timing {
  decodedMs: number;
  nextFrameMs: number;
  /** Where the time went: the response end of POST /session, ms after the click (the QR rides in it). */
  sessionMs: number;
  /** Requests for an image after the click: 0, the QR is a data: URL of the answer. */
  imageRequests: number;
}

/**
 * In the page: clicks Start, waits for the QR <img> to be inserted (MutationObserver on the shadow
 * root), for img.decode() to resolve with naturalWidth > 0, then for the next animation frame.
 */
async function clickAndWaitForQr(): Promise<Timing> {
  await customElements.whenDefined('verify-identity');
  const host = document.querySelector('verify-identity') as HTMLElement & {
    updateComplete: Promise<unknown>;
  };
  await host.updateComplete;
  const root = host.shadowRoot!;
  const start = root.querySelector<HTMLButtonElement>('[part~="start"]');
  if (!start) throw new Error('no Start button in <verify-identity>');
  const img = new Promise<HTMLImageElement>((resolve) => {
    const found = () => root.querySelector<HTMLImageElement>('img[part~="qr"]');
    const observer = new MutationObserver(() => {
      const el = found();
      if (el) {
        observer.disconnect();
        resolve(el);
      }
    });
    observer.observe(root, { childList: true, subtree: true, attributes: true });
  });
  const t0 = performance.now();
  start.click();
  const qr = await img;
  await qr.decode();
  if (!qr.complete || qr.naturalWidth === 0) throw new Error('the QR image did not load');
  const decoded = performance.now();
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  const nextFrame = performance.now();
  const after = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter(
    (e) => e.startTime >= t0,
  );
  const session = after.filter((e) => e.name.includes('/identity/session')).pop();
  return {
    decodedMs: decoded - t0,
    nextFrameMs: nextFrame - t0,
    sessionMs: session ? session.responseEnd - t0 : -1,
    imageRequests: after.filter((e) => e.initiatorType === 'img').length,
  };
}

export const clickToQrBench: Bench = {
  timeoutMs: 120_000,
  async run({ browser }) {
    const chromium = await browser();
    const stack = await startStack({ reviewDelayMs: 0 });
    try {
      const timings: Timing[] = [];
      const context = await newContext(chromium);
      try {
        const page = await context.newPage();
        for (let i = 0; i < WARMUP + RUNS; i++) {
          // No cookie: each click creates a new browser session and a new upstream session.
          await context.clearCookies();
          await page.goto(stack.appUrl, { waitUntil: 'load' });
          const timing = await page.evaluate(clickAndWaitForQr);
          if (i >= WARMUP) timings.push(timing);
        }
      } finally {
        await context.close();
      }
      const decoded = timings.map((t) => t.decodedMs);
      const nextFrame = timings.map((t) => t.nextFrameMs);
      return {
        figures: { 'ui.clickToQrMs': { ...summarize(decoded) } },
        details: {
          measuredTo: 'img.decode() resolved, complete and naturalWidth > 0 (performance.now() in the page)',
          toNextFrameMs: summarize(nextFrame),
          sessionResponseEndMs: summarize(timings.map((t) => t.sessionMs)),
          imageRequestsAfterClick: Math.max(...timings.map((t) => t.imageRequests)),
          warmupRuns: WARMUP,
          samplesMs: decoded.map((v) => Math.round(v * 10) / 10),
        },
      };
    } finally {
      await stack.stop();
    }
  },
};
