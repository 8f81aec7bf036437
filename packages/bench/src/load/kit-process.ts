/*
 * Child process: the integrator's app with the kit (built packages, as an integrator runs them).
 * Argument: JSON KitProcessConfig. Its clock is the real one: the webhooks' timestamps are checked
 * against it, and express-session expires cookies by it.
 */
import { serveParent } from './ipc.js';
import { startKitApp } from './kit-app.js';

export interface KitProcessConfig {
  upstreamUrl: string;
  apiKey: string;
  webhookSecret?: string;
  sessionMaxAgeMs: number;
  pollIntervalMs?: number;
  timeoutMs?: number;
}

export interface KitProcessInfo {
  url: string;
}

const config = JSON.parse(process.argv[2] ?? '{}') as KitProcessConfig;
const app = await startKitApp(config);

serveParent({ url: app.url } satisfies KitProcessInfo, {
  extraStats: async () => ({ sessions: await app.sessionCount(), granted: app.granted }),
  close: () => app.close(),
});
