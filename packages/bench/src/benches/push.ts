import type { Browser } from 'playwright-core';
import { type Stack, startStack } from '../servers/stack.js';
import { newContext } from '../support/browser.js';
import { decide, sessionByCode, submitDocument, waitForUpstreamStatus } from '../support/flow.js';
import { type Distribution, distribution, sleep } from '../support/stats.js';
import type { Bench } from './bench.js';

const RUNS = 20;
/** The kit's default: how often a waiting long-poll re-reads the upstream without webhooks. */
const POLL_INTERVAL_MS = 2000;

interface PhaseEvent {
  phase: string;
  at: number;
}

/**
 * One verification in a real page: Start, a document submitted for manual review, then (at a random
 * point of the kit's poll cycle) the reviewer's decision. Returns ms from just before the decision
 * POST to the widget's `phase-change` to `approved`; both timestamps are Date.now() of one machine
 * clock (Node here, the page there).
 */
async function oneRun(chromium: Browser, stack: Stack): Promise<number> {
  const context = await newContext(chromium);
  try {
    const page = await context.newPage();
    const events: PhaseEvent[] = [];
    const waiters: { phase: string; resolve: (e: PhaseEvent) => void }[] = [];
    await page.exposeFunction('benchPhase', (phase: string, at: number) => {
      const event = { phase, at };
      events.push(event);
      for (const w of waiters.filter((w) => w.phase === phase)) w.resolve(event);
    });
    const phaseSeen = (phase: string, timeoutMs = 15_000) =>
      new Promise<PhaseEvent>((resolve, reject) => {
        const seen = events.find((e) => e.phase === phase);
        if (seen) return resolve(seen);
        const timer = setTimeout(
          () =>
            reject(new Error(`no phase-change to ${phase} (saw ${events.map((e) => e.phase).join(', ')})`)),
          timeoutMs,
        );
        waiters.push({
          phase,
          resolve: (e) => {
            clearTimeout(timer);
            resolve(e);
          },
        });
      });
    await page.goto(stack.appUrl, { waitUntil: 'load' });
    await page.evaluate(async () => {
      await customElements.whenDefined('verify-identity');
      const host = document.querySelector('verify-identity')!;
      const report = (window as unknown as { benchPhase: (phase: string, at: number) => void }).benchPhase;
      host.addEventListener('phase-change', (event) => {
        report((event as CustomEvent<{ phase: string }>).detail.phase, Date.now());
      });
    });
    const created = page.waitForResponse((r) => r.url().endsWith('/identity/session'));
    await page.locator('verify-identity [part~="start"]').click();
    const { sessionCode } = (await (await created).json()) as { sessionCode: string };
    await phaseSeen('awaiting_user');
    const { id, identificationId } = await sessionByCode(stack.sandboxUrl, sessionCode);
    await submitDocument(stack.sandboxUrl, id, 'manual_review');
    await waitForUpstreamStatus(stack.sandboxUrl, stack.apiKey, identificationId, 'IN_MANUAL_REVIEW');
    await phaseSeen('in_review');
    // Uniformly somewhere in the kit's poll cycle, after the widget's long-poll is parked again.
    await sleep(100 + Math.random() * POLL_INTERVAL_MS);
    const decidedAt = Date.now();
    await decide(stack.sandboxUrl, stack.apiKey, identificationId, 'APPROVED');
    const approved = await phaseSeen('approved');
    return approved.at - decidedAt;
  } finally {
    await context.close();
  }
}

async function measure(
  chromium: Browser,
  webhooks: boolean,
  log: (message: string) => void,
): Promise<{ stats: Distribution; samples: number[] }> {
  const stack = await startStack({ reviewDelayMs: 0, webhooks, pollIntervalMs: POLL_INTERVAL_MS });
  try {
    await oneRun(chromium, stack); // warm-up
    const samples: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = Date.now();
      samples.push(await oneRun(chromium, stack));
      if (process.env.BENCH_VERBOSE) log(`    run ${i}: ${samples.at(-1)} ms (run took ${Date.now() - t0} ms)`);
    }
    return { stats: distribution(samples), samples };
  } finally {
    await stack.stop();
  }
}

export const pushBench: Bench = {
  name: 'push',
  keys: ['push.decisionToUiMs'],
  timeoutMs: 180_000,
  async run({ browser, log }) {
    const chromium = await browser();
    const withWebhooks = await measure(chromium, true, log);
    log(`  webhooks: median ${withWebhooks.stats.median} ms`);
    const polling = await measure(chromium, false, log);
    return {
      figures: {
        'push.decisionToUiMs': { webhooks: { ...withWebhooks.stats }, polling: { ...polling.stats } },
      },
      details: {
        pollIntervalMs: POLL_INTERVAL_MS,
        trigger: 'POST /sandbox/identifications/:id/decision APPROVED on an IN_MANUAL_REVIEW identification',
        samplesMs: { webhooks: withWebhooks.samples, polling: polling.samples },
      },
    };
  },
};
