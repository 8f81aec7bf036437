import type { Browser } from 'playwright-core';
import { newContext } from '../harness/chromium.js';
import { startStack } from '../harness/stack.js';
import { median, round, summarize } from '../stats.js';
import type { Bench } from './bench.js';

/** Rounds of one widget page and one limit page each, which goes first alternating; one warm-up. */
const ROUNDS = 12;
/** A slow phone network (Chrome DevTools' "Slow 3G" class): 400 ms latency, 400 kbit/s each way. */
const NETWORK = {
  offline: false,
  latency: 400,
  downloadThroughput: (400 * 1000) / 8,
  uploadThroughput: (400 * 1000) / 8,
};

interface Timing {
  /** performance.now() in the page (0 = the navigation's start) when the QR was painted. */
  paintedMs: number;
  /** Response ends, ms after the navigation's start: the script, and the session answer. */
  scriptMs: number;
  sessionMs: number;
}

/**
 * Runs in every page before its own scripts: watches the document and every shadow root attached
 * later (the widget's) for an <img> with a source, waits for img.decode() and the next frame, and
 * notes the time. The same watcher for the widget and for its limit.
 */
function watchForQr(): void {
  const w = window as unknown as { __qrPainted?: number };
  let seen = false;
  const found = async (img: HTMLImageElement) => {
    seen = true;
    await img.decode();
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    if (img.naturalWidth > 0) w.__qrPainted = performance.now();
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

/** One cold load of `url` (new context: no cookie, no cache) on the emulated network. */
async function load(browser: Browser, url: string, script: string): Promise<Timing> {
  const context = await newContext(browser);
  try {
    await context.addInitScript(watchForQr);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', NETWORK);
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction(() => (window as { __qrPainted?: number }).__qrPainted, undefined, {
      polling: 100,
      timeout: 30_000,
    });
    return await page.evaluate((script) => {
      const ended = (part: string) => {
        const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
        return entries.find((e) => e.name.includes(part))?.responseEnd ?? -1;
      };
      return {
        paintedMs: (window as { __qrPainted?: number }).__qrPainted ?? -1,
        scriptMs: ended(script),
        sessionMs: ended('/session'),
      };
    }, script);
  } finally {
    await context.close();
  }
}

export const timeToQrBench: Bench = {
  timeoutMs: 240_000,
  async run({ browser }) {
    const chromium = await browser();
    const stack = await startStack({ reviewDelayMs: 0 });
    try {
      // The limit's JSON: a real session answer of the kit, as many bytes.
      const created = await fetch(`${stack.appUrl}/identity/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"locale":"en"}',
      });
      const answer = await created.text();
      if (created.status !== 201) throw new Error(`POST /identity/session answered ${created.status}`);
      await fetch(`${stack.appUrl}/bench/qr-limit/answer`, { method: 'POST', body: answer });

      const widget = () => load(chromium, `${stack.appUrl}/auto`, 'verify-identity.standalone.js');
      const limit = () => load(chromium, `${stack.appUrl}/bench/qr-limit`, 'qr-limit.js');
      await widget();
      await limit();
      const widgetRuns: Timing[] = [];
      const limitRuns: Timing[] = [];
      const ratios: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const order = round % 2 === 0 ? [widget, limit] : [limit, widget];
        const [first, second] = [await order[0]!(), await order[1]!()];
        const [w, l] = round % 2 === 0 ? [first, second] : [second, first];
        widgetRuns.push(w);
        limitRuns.push(l);
        ratios.push(w.paintedMs / l.paintedMs);
      }
      const painted = widgetRuns.map((t) => t.paintedMs);
      const limitPainted = limitRuns.map((t) => t.paintedMs);
      return {
        figures: {
          'ui.timeToQr.slow3g': {
            median: round(median(painted), 0),
            limitMedian: round(median(limitPainted), 0),
            vsLimit: round(median(ratios), 2),
          },
        },
        details: {
          network: { latencyMs: NETWORK.latency, kbitPerSecond: 400, cache: 'disabled' },
          measuredTo: 'the QR <img> decoded, then the next frame (performance.now(): 0 = navigation start)',
          vsLimit: 'median of the per-round ratios (widget ÷ limit), rounds interleaved',
          sessionAnswerBytes: Buffer.byteLength(answer),
          widget: {
            paintedMs: summarize(painted),
            scriptResponseEndMs: summarize(widgetRuns.map((t) => t.scriptMs)),
            sessionResponseEndMs: summarize(widgetRuns.map((t) => t.sessionMs)),
          },
          limit: {
            paintedMs: summarize(limitPainted),
            scriptResponseEndMs: summarize(limitRuns.map((t) => t.scriptMs)),
            sessionResponseEndMs: summarize(limitRuns.map((t) => t.sessionMs)),
          },
          ratios: ratios.map((r) => round(r, 3)),
        },
      };
    } finally {
      await stack.stop();
    }
  },
};
