// An integrator's instance in a process of its own (approval-delivery.test.ts kills it with SIGKILL):
// accounts from the `x-account` header, the kit's records in Redis, each onStatusChange event appended
// to a file as one JSON line (it survives a kill -9). EVENT_INSTANCE (JSON of EventInstanceOptions)
// configures it, and may stop it at one moment of telling an approval:
// - 'freeze-after-approval': the compare-and-set that records APPROVED has run in Redis, and its
//   answer never comes back (the process is then killed between that write and the handler);
// - 'pause-after-approval': the same write's answer is held until `POST /fault/continue` (Redis can be
//   stopped meanwhile: the next store call after the write meets the outage);
// - 'hang-in-handler': the handler is called for APPROVED and never returns (the product never
//   finished its work when the process is killed).
// Each such moment prints `fault: <moment> <identificationId> [<event id>]`. With a webhookSecret it
// receives the service's webhooks (through a test's load balancer).
import { appendFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { announceListening } from '@verify-kit/testkit';
import express from 'express';
import session from 'express-session';
import { createClient } from 'redis';
import { createVerifyKit, type RecordStore, type StatusChangeEvent } from '../../src/index.js';
import { createRedisBindingStore, createRedisReplayStore } from '../../src/redis.js';

export interface EventInstanceOptions {
  baseUrl: string;
  apiKey: string;
  redisUrl: string;
  eventsFile: string;
  fault?: 'freeze-after-approval' | 'pause-after-approval' | 'hang-in-handler';
  /** Receives the service's signed webhooks, with the deliveries it accepted kept in Redis too. */
  webhookSecret?: string;
}

const options = JSON.parse(process.env.EVENT_INSTANCE ?? '{}') as EventInstanceOptions;
const say = (line: string) => process.stdout.write(`${line}\n`);

let resume: () => void = () => {};
const resumed = new Promise<void>((resolve) => {
  resume = resolve;
});

/** The Redis store, its approving compare-and-set held as `fault` says. */
function storeWithFault(): RecordStore {
  const store = createRedisBindingStore({ url: options.redisUrl });
  const { fault } = options;
  if (fault !== 'freeze-after-approval' && fault !== 'pause-after-approval') return store;
  const statusRecords: RecordStore['statusRecords'] = {
    get: (key) => store.statusRecords.get(key),
    delete: (key) => store.statusRecords.delete(key),
    async compareAndSet(key, expected, next) {
      const stored = await store.statusRecords.compareAndSet(key, expected, next);
      // The identification's own record (a key of the kit's own beside it names more than the id).
      const own = next.identificationId?.toLowerCase() === key;
      if (!stored || next.status !== 'APPROVED' || !own) return stored;
      say(`fault: ${fault} ${key}`);
      if (fault === 'freeze-after-approval') return new Promise<boolean>(() => {});
      await resumed;
      return stored;
    },
  };
  return {
    bindings: store.bindings,
    statusRecords,
    decisions: store.decisions,
    health: () => store.health?.() ?? true,
  };
}

/** The webhook's options: the secret, and the deliveries accepted shared by every instance. */
async function webhookOptions() {
  if (options.webhookSecret === undefined) return {};
  const client = createClient({ url: options.redisUrl });
  await client.connect();
  return { webhookSecret: options.webhookSecret, replayStore: createRedisReplayStore({ client }) };
}

const kit = createVerifyKit({
  ...(await webhookOptions()),
  baseUrl: options.baseUrl,
  apiKey: options.apiKey,
  workflowId: 'default',
  accountOf: (req) => req.get('x-account'),
  bindingStore: storeWithFault(),
  sessionLimit: false,
  onStatusChange(event: StatusChangeEvent) {
    if (options.fault === 'hang-in-handler' && event.status === 'APPROVED') {
      say(`fault: hang-in-handler ${event.identificationId} ${(event as { id?: string }).id}`);
      return new Promise<void>(() => {});
    }
    appendFileSync(options.eventsFile, `${JSON.stringify({ ...event, pid: process.pid })}\n`);
  },
});

const app = express();
// The account comes from a header; the session (this process's memory) only has to be there.
app.use(session({ secret: 'event-instance-secret', resave: false, saveUninitialized: false }));
app.use('/identity', kit.router);
app.post('/fault/continue', (_req, res) => {
  resume();
  res.status(204).end();
});
const server = app.listen(0, '127.0.0.1', () => {
  announceListening(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
process.once('SIGTERM', () => {
  void kit.close().then(() => server.close(() => process.exit(0)));
});
