import type { Browser } from 'playwright-core';
import { qrPainted, withContext } from '../harness/chromium.js';
import { setLimitAnswer } from '../harness/qr-limit.js';
import { withStack } from '../harness/stack.js';
import { interleave, median, round, summarize } from '../stats.js';
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

/** One cold load of `url` (new context: no cookie, no cache) on the emulated network. */
function load(browser: Browser, url: string, script: string): Promise<Timing> {
  return withContext(browser, { watchQr: true }, async (context) => {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', NETWORK);
    await page.goto(url, { waitUntil: 'commit' });
    const { paintedMs } = await qrPainted(page);
    const ended = await page.evaluate((script) => {
      const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      const end = (part: string) => entries.find((e) => e.name.includes(part))?.responseEnd ?? -1;
      return { scriptMs: end(script), sessionMs: end('/session') };
    }, script);
    return { paintedMs, ...ended };
  });
}

const timingsOf = (runs: Timing[]) => ({
  paintedMs: summarize(runs.map((t) => t.paintedMs)),
  scriptResponseEndMs: summarize(runs.map((t) => t.scriptMs)),
  sessionResponseEndMs: summarize(runs.map((t) => t.sessionMs)),
});

export const bench: Bench = {
  timeoutMs: 240_000,
  async run({ browser }) {
    const chromium = await browser();
    return withStack({}, async (stack) => {
      const answer = await setLimitAnswer(stack.appUrl);

      const widget = () => load(chromium, `${stack.appUrl}/auto`, 'verify-identity.standalone.js');
      const limit = () => load(chromium, `${stack.appUrl}/bench/qr-limit`, 'qr-limit.js');
      await widget();
      await limit();
      const [widgetRuns, limitRuns] = (await interleave(ROUNDS, [widget, limit])) as [Timing[], Timing[]];
      const ratios = widgetRuns.map((w, i) => w.paintedMs / limitRuns[i]!.paintedMs);
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
          widget: timingsOf(widgetRuns),
          limit: timingsOf(limitRuns),
          ratios: ratios.map((r) => round(r, 3)),
        },
      };
    });
  },
};
