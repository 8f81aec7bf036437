import { performance } from 'node:perf_hooks';
import { generateWebhookSecret } from '@verify-kit/client';
import { createSandboxControl } from '@verify-kit/sandbox/control';
import { startRedisServer } from '@verify-kit/testkit';
import { Pool } from 'undici';
import type { AppCommands } from '../harness/app-process.js';
import { startChild } from '../harness/child.js';
import type { SandboxCommands } from '../harness/sandbox-process.js';
import { approvedUsers } from '../harness/users.js';
import { startWebhookClock } from '../harness/webhook-clock.js';
import { round, summarize } from '../stats.js';

/** Approved people in their visits on instance B, each revoked in turn. */
const PEOPLE = 40;
const REFUSAL_TIMEOUT_MS = 10_000;

/**
 * Revocation across instances: two kit instances (own processes) on one Redis (binding store,
 * status bus, sessions), the sandbox's webhooks going to A through a pass-through proxy in this
 * process. For each person in a visit on B: the sandbox's status override (REJECTED, which sends
 * the webhook), B asked without pause with the person's cookie; the figure is from A's 2xx, as the
 * proxy saw it, to B's first refusal, both on this process's clock. 0 when B already refused.
 */
export async function measureRevocation() {
  const redis = await startRedisServer();
  const app = () => startChild<AppCommands>(new URL('../harness/app-process.ts', import.meta.url));
  const a = app();
  const b = app();
  const sandboxProcess = startChild<SandboxCommands>(
    new URL('../harness/sandbox-process.ts', import.meta.url),
  );
  const closers: (() => Promise<unknown>)[] = [() => redis.stop()];
  try {
    const { url: aUrl } = await a.call('listen', {});
    const { url: bUrl } = await b.call('listen', {});
    const clock = await startWebhookClock(aUrl);
    closers.unshift(() => clock.close());
    const webhookSecret = generateWebhookSecret();
    const { url: sandboxUrl, apiKey } = await sandboxProcess.call('start', {
      reviewDelayMs: 0,
      webhookUrl: `${clock.url}/identity/webhook`,
      webhookSecret,
    });
    const config = {
      upstreamUrl: sandboxUrl,
      apiKey,
      webhookSecret,
      binding: 'redis' as const,
      redisUrl: redis.url,
      shared: { sessionSecret: generateWebhookSecret() },
    };
    await Promise.all([a.call('configure', config), b.call('configure', config)]);
    const users = await approvedUsers({ appUrl: bUrl, sandboxUrl, apiKey }, PEOPLE, true);
    const sandbox = createSandboxControl({ url: sandboxUrl, apiKey });
    const onB = new Pool(bUrl, { connections: 1 });
    closers.unshift(() => onB.close());
    const visit = async (cookie: string) => {
      const answer = await onB.request({
        method: 'GET',
        path: '/visit',
        headers: { accept: 'application/json', cookie },
      });
      await answer.body.dump();
      return answer.statusCode;
    };
    const latencies: number[] = [];
    let polls = 0;
    for (const user of users) {
      if ((await visit(user.cookie)) !== 200)
        throw new Error('an approved person in a visit was refused on B');
      const acknowledged = clock.next(user.identificationId);
      const refused = (async () => {
        const deadline = performance.now() + REFUSAL_TIMEOUT_MS;
        while (performance.now() < deadline) {
          const status = await visit(user.cookie);
          polls++;
          if (status === 403) return performance.now();
          if (status !== 200) throw new Error(`B answered ${status} to a person being revoked`);
        }
        throw new Error(`B did not refuse a revoked person within ${REFUSAL_TIMEOUT_MS} ms`);
      })();
      await sandbox.setStatus(user.identificationId, 'REJECTED');
      const [refusedAt, acknowledgedAt] = await Promise.all([refused, acknowledged]);
      latencies.push(refusedAt - acknowledgedAt);
    }
    const clamped = latencies.map((ms) => Math.max(0, ms));
    const summary = summarize(clamped);
    return {
      figure: { p50: summary.median, p99: summary.p99, count: summary.count },
      details: {
        people: PEOPLE,
        clock: "the proxy in front of A saw A's 2xx; B's 403 arrived at the bench; both performance.now()",
        summary,
        refusedBeforeTheAnswer: latencies.filter((ms) => ms <= 0).length,
        rawMs: latencies.map((ms) => round(ms, 1)),
        requestsToB: polls,
      },
    };
  } finally {
    await Promise.allSettled([a.stop(), b.stop(), sandboxProcess.stop()]);
    for (const close of closers) await close().catch(() => undefined);
  }
}
