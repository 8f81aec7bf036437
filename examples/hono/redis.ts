import { serve } from '@hono/node-server';
import { createVerifyKit } from '@verify-kit/hono';
import { countInNode, redisStore } from '@verify-kit/hono/redis';
import { Hono } from 'hono';
import { createClient } from 'redis';

const redis = createClient({ url: process.env.REDIS_URL }); // e.g. redis://:password@10.0.0.5:6379
redis.on('error', (error) => console.error('redis:', error.message)); // node-redis needs a listener
await redis.connect();

const kit = createVerifyKit(
  {
    baseUrl: process.env.IDV_BASE_URL!,
    apiKey: process.env.IDV_API_KEY!,
    workflowId: 'default',
    webhookSecret: process.env.IDV_WEBHOOK_SECRET,
    secret: process.env.VERIFY_KIT_SECRET!, // the same on every instance
    // Bindings, decisions, replay keys, limits and the status bus, shared by every instance
    store: redisStore({ client: redis }),
  },
  { countIn: countInNode }, // the limits counted in Redis too (rate-limiter-flexible, Node only)
);

const app = new Hono();
app.route('/identity', kit.router);
app.get('/account', kit.requireApproved({ redirectTo: '/verify' }), (c) => c.text('welcome'));
// What the load balancer checks: 503 while Redis is down.
app.get('/ready', async (c) => {
  const health = await kit.health();
  return c.json(health, health.ok ? 200 : 503);
});

const server = serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 3000) }, (info) => {
  console.log(`listening on http://127.0.0.1:${info.port}`);
});
process.on('SIGTERM', async () => {
  await kit.close(); // closes what the store opened (not your client)
  server.close();
  await redis.close();
});
