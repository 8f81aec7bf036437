/*
 * Child process: the integrator's app with the kit (built packages, as an integrator runs them).
 * Argument: JSON KitProcessConfig. Its clock can be moved forward with the sandbox's (IPC advance).
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
let offsetMs = 0;
const app = await startKitApp({ ...config, now: () => Date.now() + offsetMs });

serveParent({ url: app.url } satisfies KitProcessInfo, {
  extraStats: async () => ({ sessions: await app.sessionCount(), granted: app.granted }),
  advance: (ms) => {
    offsetMs += ms;
  },
  close: () => app.close(),
});
