import { randomBytes } from 'node:crypto';
import type { AppConfig } from './app.js';

/**
 * The Fetch-door kits' options of the bench apps (fetch-app.ts, hono-app.ts): the upstream, a fresh
 * cookie secret, and no limit a load from one address would meet (no creation limit, a read budget
 * out of reach), as the Express app (app.ts) lifts them.
 */
export function benchKitOptions(config: AppConfig) {
  return {
    baseUrl: config.upstreamUrl,
    apiKey: config.apiKey,
    workflowId: 'default',
    secret: randomBytes(32).toString('base64url'),
    sessionLimit: false as const,
    upstreamReadsPerSecond: 100_000,
    readLimit: { perClient: 10_000, perIp: 1_000_000 },
    ...(config.webhookSecret ? { webhookSecret: config.webhookSecret } : {}),
    ...(config.maxReadsPerSecond ? { maxReadsPerSecond: config.maxReadsPerSecond } : {}),
  };
}
