import { VerifyKitError } from '@verify-kit/client';
import {
  type BindingStore,
  createMemoryBindingStore,
  createVerifyKit,
  type VerifyKit,
} from '@verify-kit/express';
import type { openTelemetry } from '@verify-kit/otel';
import { type ActivityLog, recordAcceptedActivity } from './activity-log.js';
import { DEFAULT_SCENARIO, type SessionOptionsFromScenario, sessionOptionsFor } from './scenario.js';
import type { DemoOptions } from './start-demo.js';
import type { Upstream } from './upstream.js';

/**
 * The demo's kit: verifications bound to the demo account (accountOf), the session options from the
 * playground's scenario, the activity log fed by the kit's hooks; with --redis, the status bus and
 * the binding store in Redis. Each closer is pushed to `cleanups`.
 */
export async function createDemoKit(
  options: DemoOptions,
  upstream: Upstream,
  activity: ActivityLog,
  cleanups: Array<() => Promise<void> | void>,
  metrics?: { instrumentation: ReturnType<typeof openTelemetry> },
): Promise<{ kit: VerifyKit; bindingStore: BindingStore }> {
  // Several demo instances behind one load balancer: webhooks wake long-polls on every instance,
  // and a replayed webhook-id is refused by all of them.
  const bus =
    options.redisUrl === undefined || options.redisUrl === ''
      ? undefined
      : (await import('@verify-kit/express/redis')).createRedisStatusBus({ url: options.redisUrl });
  if (bus !== undefined) {
    cleanups.push(() => bus.close());
    await bus.ready();
  }

  // Verifications belong to the demo account (accountOf), kept in memory or, with --redis, in Redis.
  let bindingStore: BindingStore = createMemoryBindingStore();
  if (options.redisUrl !== undefined && options.redisUrl !== '') {
    const { createRedisBindingStore } = await import('@verify-kit/express/redis');
    const redisStore = createRedisBindingStore({ url: options.redisUrl });
    cleanups.push(() => redisStore.close());
    bindingStore = redisStore;
  }

  const kit = createVerifyKit({
    accountOf: (req) => req.session.userId,
    bindingStore,
    baseUrl: upstream.baseUrl,
    apiKey: upstream.apiKey,
    workflowId: options.workflowId ?? 'default',
    sessionOptions: (req): SessionOptionsFromScenario => {
      const user = req.session.user;
      if (user === undefined)
        throw new VerifyKitError('SIGN_IN_REQUIRED', 'please sign in first', { status: 401 });
      return sessionOptionsFor(req.session.scenario ?? DEFAULT_SCENARIO, user);
    },
    // The widget's "get the link sent to you" button: the service e-mails the session's link to the
    // account's own address, never one typed in the browser. (A real app returns the e-mail it
    // verified; the demo's sign-in stands in for that.) No SMS: the demo knows no verified phone.
    sendLink: {
      channels: ['email'],
      contactOf: (req) => (req.session.user === undefined ? undefined : { email: req.session.user.email }),
    },
    ...(upstream.webhookSecret === undefined ? {} : { webhookSecret: upstream.webhookSecret }),
    // With the embedded sandbox the kit keeps the sandbox's time, so moving the sandbox's clock
    // (POST /sandbox/clock/advance) expires sessions for the whole demo, webhooks included.
    ...(upstream.sandbox === undefined ? {} : { now: upstream.sandbox.now }),
    ...(bus === undefined ? {} : { statusBus: bus, replayStore: bus.replayStore }),
    ...recordAcceptedActivity(activity),
    ...(metrics === undefined ? {} : { instrumentation: metrics.instrumentation }),
  });
  cleanups.push(() => kit.close());
  return { kit, bindingStore };
}
