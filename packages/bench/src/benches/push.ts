import { createSandboxControl } from '@verify-kit/sandbox/control';
import type { Page } from 'playwright-core';
import { withContext } from '../harness/chromium.js';
import { type Stack, withStack } from '../harness/stack.js';
import { sleep, summarize } from '../stats.js';
import type { Bench, BenchContext } from './bench.js';

const RUNS = 20;
/** The kit's default: how often a waiting long-poll re-reads the upstream without webhooks. */
const POLL_INTERVAL_MS = 2000;

type PhaseLog = { phase: string; at: number }[];

/** The widget's phase-change to `phase` (its page's Date.now()), once it has happened. */
async function seen(page: Page, phase: string, timeoutMs = 15_000): Promise<number> {
  try {
    const at = await page.waitForFunction(
      (p) => (window as unknown as { phases: PhaseLog }).phases.find((e) => e.phase === p)?.at,
      phase,
      { timeout: timeoutMs, polling: 10 },
    );
    return (await at.jsonValue()) as number;
  } catch {
    const saw = await page.evaluate(() => (window as unknown as { phases: PhaseLog }).phases);
    throw new Error(`no phase-change to ${phase} (saw ${saw.map((e) => e.phase).join(', ') || 'none'})`);
  }
}

/**
 * One verification in the page: Start, a document submitted for manual review, then the reviewer's
 * decision. Returns ms from just before the decision POST to the widget's `phase-change` to
 * `approved`; both are Date.now() of the same machine clock (Node here, the page there).
 */
async function oneRun(page: Page, stack: Stack, webhooks: boolean): Promise<number> {
  await page.context().clearCookies();
  await page.goto(stack.appUrl, { waitUntil: 'load' });
  await page.evaluate(async () => {
    await customElements.whenDefined('verify-identity');
    const phases: PhaseLog = [];
    (window as unknown as { phases: PhaseLog }).phases = phases;
    document.querySelector('verify-identity')!.addEventListener('phase-change', (event) => {
      phases.push({ phase: (event as CustomEvent<{ phase: string }>).detail.phase, at: Date.now() });
    });
  });
  const created = page.waitForResponse((r) => r.url().endsWith('/identity/session'));
  await page.locator('verify-identity [part~="start"]').click();
  const { sessionCode } = (await (await created).json()) as { sessionCode: string };
  await seen(page, 'awaiting_user');
  const sandbox = createSandboxControl({ url: stack.sandboxUrl, apiKey: stack.apiKey });
  const { identificationId } = await sandbox.submitByCode(sessionCode, 'manual_review');
  await sandbox.waitForStatus(identificationId, 'IN_MANUAL_REVIEW');
  if (webhooks) {
    // The in_manual_review webhook has reached the widget; its next long-poll is parked.
    await seen(page, 'in_manual_review');
    await sleep(50);
  } else {
    // The widget's long-poll is parked; the decision lands uniformly somewhere in the kit's poll cycle.
    await sleep(Math.random() * POLL_INTERVAL_MS);
  }
  const decidedAt = Date.now();
  await sandbox.decide(identificationId, 'APPROVED');
  return (await seen(page, 'approved', 10_000 + POLL_INTERVAL_MS)) - decidedAt;
}

async function measure(context: BenchContext, webhooks: boolean) {
  return withStack({ webhooks, app: { pollIntervalMs: POLL_INTERVAL_MS } }, async (stack) => {
    return withContext(await context.browser(), {}, async (browserContext) => {
      const page = await browserContext.newPage();
      await oneRun(page, stack, webhooks); // warm-up
      const samples: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const t0 = Date.now();
        samples.push(await oneRun(page, stack, webhooks));
        if (process.env.BENCH_VERBOSE)
          context.log(`    run ${i}: ${samples.at(-1)} ms (took ${Date.now() - t0} ms)`);
      }
      return { stats: summarize(samples), samples };
    });
  });
}

export const bench: Bench = {
  timeoutMs: 180_000,
  async run(context) {
    const withWebhooks = await measure(context, true);
    context.log(`  with webhooks: median ${withWebhooks.stats.median} ms`);
    const polling = await measure(context, false);
    return {
      figures: {
        'push.decisionToUiMs': { webhooks: { ...withWebhooks.stats }, polling: { ...polling.stats } },
        // A lost webhook: the decision reaches the browser by the long-poll's re-reads alone.
        'push.lostWebhookToUiMs': { ...polling.stats },
      },
      details: {
        pollIntervalMs: POLL_INTERVAL_MS,
        trigger: 'POST /sandbox/identifications/:id/decision APPROVED on an IN_MANUAL_REVIEW identification',
        samplesMs: { webhooks: withWebhooks.samples, polling: polling.samples },
      },
    };
  },
};
