import { createVerifyKit } from '@verify-kit/express';
import { createRedisBindingStore, createRedisStatusBus } from '@verify-kit/express/redis';
import { createClient } from 'redis';

const redis = createClient({ url: process.env.REDIS_URL });
redis.on('error', (error) => console.error('redis:', error.message));
await redis.connect();
const contactOf = () => undefined; // your accounts' verified contacts ("Send-link")

const bindingStore = createRedisBindingStore({ client: redis });
const bus = createRedisStatusBus({ client: redis });

const kit = createVerifyKit({
  baseUrl: process.env.IDV_BASE_URL!,
  apiKey: process.env.IDV_API_KEY!,
  workflowId: 'default',
  webhookSecret: process.env.IDV_WEBHOOK_SECRET,
  accountOf: (req) => req.session.userId,
  bindingStore, // bindings, status records and decisions
  statusBus: bus, // webhook hints to every instance's long-polls
  replayStore: bus.replayStore, // the webhook-ids already accepted
  sessionLimit: { redis }, // creation limits and the read budget
  sendLink: { channels: ['email'], contactOf, redis }, // send counts
});

// On SIGTERM, after kit.shutdown(): the parts are yours to close.
async function close() {
  await bus.close();
  await bindingStore.close();
  await redis.close();
}

export { bus, close, kit, redis };
