import { performance } from 'node:perf_hooks';
import { generateWebhookSecret } from '@verify-kit/client';
import { createSandboxControl, type SandboxControl } from '@verify-kit/sandbox/control';
import { startRedisServer } from '@verify-kit/testkit';
import { Pool } from 'undici';
import { withStack } from '../harness/stack.js';
import { type ApprovedUser, approvedUsers } from '../harness/users.js';
import { startWebhookClock, type WebhookClock } from '../harness/webhook-clock.js';
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
  let clock: WebhookClock | undefined;
  const app = {
    binding: 'redis' as const,
    redisUrl: redis.url,
    shared: { sessionSecret: generateWebhookSecret() },
  };
  const webhookProxy = async (url: string) => (clock = await startWebhookClock(url));
  const onTwo = { webhooks: true, webhookProxy, instances: 2, app };
  return withStack(onTwo, async (stack) => {
    const [, bUrl] = stack.appUrls as [string, string];
    const users = await approvedUsers({ ...stack, appUrl: bUrl }, PEOPLE, { signIn: true });
    const sandbox = createSandboxControl({ url: stack.sandboxUrl, apiKey: stack.apiKey });
    const onB = new Pool(bUrl, { connections: 1 });
    const { latencies, polls } = await revokeEach(users, onB, sandbox, clock!).finally(() => onB.close());
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
  }).finally(async () => {
    await redis.stop();
  });
}

/** Each person revoked in turn: ms from A's 2xx to the webhook to B's first refusal; requests to B. */
async function revokeEach(users: ApprovedUser[], onB: Pool, sandbox: SandboxControl, clock: WebhookClock) {
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
    if ((await visit(user.cookie)) !== 200) throw new Error('an approved person in a visit was refused on B');
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
  return { latencies, polls };
}
