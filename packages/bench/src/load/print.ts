import { table } from '../table.js';
import type { MemorySnapshot } from './measure.js';
import type { LoadFigures } from './run-load.js';
import { STEPS } from './user-flow.js';

/** The run as a person reads it in the terminal. */
export function printReport(f: LoadFigures, memory: [string, MemorySnapshot][]): void {
  const { config } = f;
  const what =
    config.soakSeconds > 0 ? `soak: ${f.waves} waves of ${config.users} users` : `load: ${f.users} users`;
  console.log(
    `\n${what} in ${f.wallSeconds} s, concurrency ${config.concurrency}, review delay ${config.reviewDelayMs} ms, ` +
      `webhooks ${config.webhooks ? 'on' : 'off'}`,
  );
  console.log(
    `errors: ${f.errors} of ${f.users} users   false grants: ${f.falseGrants}   throughput: ${f.usersPerSecond} users/s`,
  );
  for (const { message, users } of f.errorMessages.slice(0, 10)) console.log(`  ${users} x ${message}`);
  console.log(
    table(
      ['step (ms)', 'count', 'median', 'p99', 'max'],
      STEPS.map((step) => {
        const s = f.stepsMs[step];
        return [step, s.count, s.median, s.p99, s.max];
      }),
    ),
  );
  const up = f.upstreamCallsPerUser;
  console.log(
    `\nupstream calls per user (kit -> sandbox, counted by the proxy): ${up.total} ` +
      `(create ${up.create}, read ${up.read}, other ${up.other}); long-polls per user: ${f.longPollsPerUser}\n`,
  );
  const hooks = f.webhookDeliveries;
  if (hooks) {
    console.log(
      `webhooks (latest ${hooks.attemptsLogged} attempts): ${hooks.failed} failed, ` +
        `kit answered in median ${hooks.durationMs.median} ms, p99 ${hooks.durationMs.p99} ms\n`,
    );
  }
  console.log(
    table(
      ['memory (MB, after GC)', 'kit rss', 'kit heap', 'kit sessions', 'sandbox rss', 'sandbox heap'],
      memory.map(([label, m]) => [
        label,
        m.kit.rssMB,
        m.kit.heapUsedMB,
        m.kit.sessions,
        m.sandbox.rssMB,
        m.sandbox.heapUsedMB,
      ]),
    ),
  );
  const heap = f.heapReturn;
  if (heap) {
    console.log(
      `\nkit heap after expiry: ${heap.afterExpiryMB} MB against a warm baseline of ${heap.baselineMB} MB ` +
        `(${heap.ratio}×; goal ≤ ${heap.goal}×: ${heap.met ? 'met' : 'MISSED'})`,
    );
  }
  const p = f.processFailures;
  console.log(
    `\nkit: ${p.kitUnhandledRejections} unhandled rejections, ${p.kitUncaughtExceptions} uncaught exceptions; ` +
      `sandbox: ${p.sandboxUnhandledRejections}, ${p.sandboxUncaughtExceptions}; processes alive: ${f.processesAlive}`,
  );
}
