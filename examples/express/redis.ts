import { createVerifyKit } from '@verify-kit/express';
import { redisStore } from '@verify-kit/express/redis';
import { RedisStore } from 'connect-redis';
import express from 'express';
import session from 'express-session';
import { createClient } from 'redis';

const redis = createClient({ url: process.env.REDIS_URL }); // e.g. redis://:password@10.0.0.5:6379
redis.on('error', (error) => console.error('redis:', error.message)); // node-redis needs a listener
await redis.connect();

const kit = createVerifyKit({
  baseUrl: process.env.IDV_BASE_URL!,
  apiKey: process.env.IDV_API_KEY!,
  workflowId: 'default',
  webhookSecret: process.env.IDV_WEBHOOK_SECRET,
  // Bindings, status records, decisions, replay keys, creation limits, the read budget, send counts
  // and the status bus, shared by every instance (plus one subscriber connection: redis.duplicate())
  store: redisStore({ client: redis }),
});

const app = express();
app.set('trust proxy', 1); // behind the load balancer (Origin checks use X-Forwarded-Host)
app.use(
  session({
    store: new RedisStore({ client: redis, prefix: 'sess:' }),
    // __Host-: Secure, Path=/, no Domain: no subdomain or http page can plant a signed-in session
    name: '__Host-sid',
    secret: process.env.SESSION_SECRET!, // the same on every instance
    resave: false,
    saveUninitialized: false,
    cookie: { httpOnly: true, secure: true, sameSite: 'lax' },
  }),
);
app.use('/identity', kit.router);
app.get('/account', kit.requireApproved({ redirectTo: '/verify' }), (_req, res) => res.send('welcome'));
// What the load balancer checks: 503 as soon as a shutdown begins (or Redis is down).
app.get('/ready', async (_req, res) => {
  const health = await kit.health();
  res.status(health.ok ? 200 : 503).json(health);
});

const server = app.listen(Number(process.env.PORT ?? 3000));
process.on('SIGTERM', async () => {
  // Not ready at once; serves on for drainMs (every answer with Connection: close) while the
  // balancer takes it out; then open long-polls get what the kit knows and the server closes.
  await kit.shutdown({ server, drainMs: 5_000 }); // > the balancer's inter × (fall + 1)
  await redis.close(); // yours: the kit closed what the store opened (its subscriber), not this client
});

export { redis, server };
