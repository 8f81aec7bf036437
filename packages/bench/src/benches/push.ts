import { createSandboxControl } from '@verify-kit/sandbox/control';
import type { Page } from 'playwright-core';
import { newContext } from '../harness/chromium.js';
import { type Stack, startStack } from '../harness/stack.js';
import { type Summary, sleep, summarize } from '../stats.js';
import type { Bench, BenchContext } from './bench.js';

const RUNS = 20;
/** The kit's default: how often a waiting long-poll re-reads the upstream without webhooks. */
const POLL_INTERVAL_MS = 2000;

interface PhaseEvent {
  phase: string;
  at: number;
}

/** The widget's phase-change events, reported by the page with the page's Date.now(). */
class PhaseLog {
  #events: PhaseEvent[] = [];
  #waiters: { phase: string; resolve: (event: PhaseEvent) => void }[] = [];

  record(phase: string, at: number): void {
    const event = { phase, at };
    this.#events.push(event);
    for (const waiter of this.#waiters.filter((w) => w.phase === phase)) waiter.resolve(event);
  }

  reset(): void {
    this.#events = [];
    this.#waiters = [];
  }

  seen(phase: string, timeoutMs = 15_000): Promise<PhaseEvent> {
    return new Promise((resolve, reject) => {
      const earlier = this.#events.find((e) => e.phase === phase);
      if (earlier) return resolve(earlier);
      const timer = setTimeout(() => {
        const saw = this.#events.map((e) => e.phase).join(', ');
        reject(new Error(`no phase-change to ${phase} (saw ${saw || 'none'})`));
      }, timeoutMs);
      this.#waiters.push({
        phase,
        resolve: (event) => {
          clearTimeout(timer);
          resolve(event);
        },
      });
    });
  }
}

/**
 * One verification in the page: Start, a document submitted for manual review, then the reviewer's
 * decision. Returns ms from just before the decision POST to the widget's `phase-change` to
 * `approved`; both are Date.now() of the same machine clock (Node here, the page there).
 */
async function oneRun(page: Page, phases: PhaseLog, stack: Stack, webhooks: boolean): Promise<number> {
  phases.reset();
  await page.context().clearCookies();
  await page.goto(stack.appUrl, { waitUntil: 'load' });
  await page.evaluate(async () => {
    await customElements.whenDefined('verify-identity');
    const report = (window as unknown as { benchPhase: (phase: string, at: number) => void }).benchPhase;
    document.querySelector('verify-identity')!.addEventListener('phase-change', (event) => {
      report((event as CustomEvent<{ phase: string }>).detail.phase, Date.now());
    });
  });
  const created = page.waitForResponse((r) => r.url().endsWith('/identity/session'));
  await page.locator('verify-identity [part~="start"]').click();
  const { sessionCode } = (await (await created).json()) as { sessionCode: string };
  await phases.seen('awaiting_user');
  const sandbox = createSandboxControl({ url: stack.sandboxUrl, apiKey: stack.apiKey });
  const { identificationId } = await sandbox.submitByCode(sessionCode, 'manual_review');
  await sandbox.waitForStatus(identificationId, 'IN_MANUAL_REVIEW');
  if (webhooks) {
    // The in_manual_review webhook has reached the widget; its next long-poll is parked.
    await phases.seen('in_manual_review');
    await sleep(50);
  } else {
    // The widget's long-poll is parked; the decision lands uniformly somewhere in the kit's poll cycle.
    await sleep(Math.random() * POLL_INTERVAL_MS);
  }
  const decidedAt = Date.now();
  await sandbox.decide(identificationId, 'APPROVED');
  const approved = await phases.seen('approved', 10_000 + POLL_INTERVAL_MS);
  return approved.at - decidedAt;
}

async function measure(
  context: BenchContext,
  webhooks: boolean,
): Promise<{ stats: Summary; samples: number[] }> {
  const stack = await startStack({ webhooks, app: { pollIntervalMs: POLL_INTERVAL_MS } });
  const browserContext = await newContext(await context.browser());
  try {
    const page = await browserContext.newPage();
    const phases = new PhaseLog();
    await page.exposeFunction('benchPhase', (phase: string, at: number) => phases.record(phase, at));
    await oneRun(page, phases, stack, webhooks); // warm-up
    const samples: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = Date.now();
      samples.push(await oneRun(page, phases, stack, webhooks));
      if (process.env.BENCH_VERBOSE)
        context.log(`    run ${i}: ${samples.at(-1)} ms (took ${Date.now() - t0} ms)`);
    }
    return { stats: summarize(samples), samples };
  } finally {
    await browserContext.close();
    await stack.stop();
  }
}

export const pushBench: Bench = {
  timeoutMs: 180_000,
  async run(context) {
    const withWebhooks = await measure(context, true);
    context.log(`  with webhooks: median ${withWebhooks.stats.median} ms`);
    const polling = await measure(context, false);
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
