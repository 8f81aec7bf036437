import { Agent, request } from 'undici';
import { startStack } from '../servers/stack.js';
import { approvedUser, startVerification } from '../support/flow.js';
import { median, sleep } from '../support/stats.js';
import type { Bench } from './bench.js';

const BURSTS = 5;
const BURST_SIZE = 100;
const TABS = 10;
const POLL_INTERVAL_MS = 1000;
const WINDOWS = 3;

/** Upstream reads caused by bursts of concurrent gated requests of one user, and by open tabs. */
export const coalescingBench: Bench = {
  timeoutMs: 60_000,
  async run() {
    const stack = await startStack({ reviewDelayMs: 0, countReads: true, pollIntervalMs: POLL_INTERVAL_MS });
    // One connection per concurrent request, opened before the burst is counted.
    const agent = new Agent({ connections: BURST_SIZE, pipelining: 1, keepAliveTimeout: 30_000 });
    const proxy = stack.proxy!;
    try {
      const approved = await approvedUser(stack);
      const gated = () =>
        request(`${stack.appUrl}/gated`, {
          dispatcher: agent,
          headers: { cookie: approved.cookie, accept: 'application/json' },
        }).then(async (r) => {
          await r.body.text();
          return r.statusCode;
        });
      await Promise.all(Array.from({ length: BURST_SIZE }, gated)); // opens the connections
      const perBurst: number[] = [];
      const timings: { readsAtMs: number[]; firstAnswerMs: number; lastAnswerMs: number }[] = [];
      for (let i = 0; i < BURSTS; i++) {
        await sleep(50);
        proxy.reset();
        const sent = performance.now();
        const answered: number[] = [];
        const statuses = await Promise.all(
          Array.from({ length: BURST_SIZE }, () =>
            gated().then((status) => {
              answered.push(performance.now() - sent);
              return status;
            }),
          ),
        );
        const ms = (t: number) => Math.round(t * 10) / 10;
        timings.push({
          readsAtMs: proxy.readTimes.map((t) => ms(t - sent)),
          firstAnswerMs: ms(Math.min(...answered)),
          lastAnswerMs: ms(Math.max(...answered)),
        });
        if (statuses.some((s) => s !== 200))
          throw new Error(`a gated request failed: ${statuses.find((s) => s !== 200)}`);
        perBurst.push(proxy.identificationReads);
      }
      // 10 tabs of one user waiting on GET /status (long-poll) while nothing changes upstream.
      const tab = await startVerification(stack.appUrl);
      const controller = new AbortController();
      proxy.reset();
      const polls = Array.from({ length: TABS }, () =>
        request(`${stack.appUrl}/identity/status?wait=25&since=awaiting_user`, {
          dispatcher: agent,
          headers: { cookie: tab.cookie, accept: 'application/json' },
          signal: controller.signal,
        }).then(
          (r) => r.body.text(),
          () => undefined,
        ),
      );
      await sleep(POLL_INTERVAL_MS / 2);
      const initialReads = proxy.identificationReads;
      proxy.reset();
      await sleep(WINDOWS * POLL_INTERVAL_MS);
      const windowReads = proxy.identificationReads;
      controller.abort();
      await Promise.all(polls);
      return {
        figures: {
          'gate.coalescing.upstreamCallsPer100': { median: median(perBurst), max: Math.max(...perBurst) },
          'status.upstreamCallsPerPollWindow': {
            perWindow: Math.round((windowReads / WINDOWS) * 100) / 100,
            tabs: TABS,
            initialReads,
          },
        },
        details: {
          bursts: perBurst,
          burstTimings: timings,
          burstSize: BURST_SIZE,
          pollIntervalMs: POLL_INTERVAL_MS,
          windows: WINDOWS,
          readsInWindows: windowReads,
        },
      };
    } finally {
      await agent.close();
      await stack.stop();
    }
  },
};
