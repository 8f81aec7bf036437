import { readFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { metrics } from '@opentelemetry/api';
import type { MeterProvider } from '@opentelemetry/sdk-metrics';
import { type Sandbox, startSandbox } from '@verify-kit/sandbox';
import { Browser, freePort } from '@verify-kit/testkit';
import express from 'express';
import session from 'express-session';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

// The @verify-kit/otel README's files: the SDK it sets up (telemetry.ts, Prometheus on a free port)
// and the one line in each shell (express.ts, next.ts, hono.ts, fetch.ts), each kit made as the file
// makes it and driven as its server drives it: a gated request refused (no verification yet) and a
// session created against the sandbox, then Prometheus scraped for the series they added.
const root = fileURLToPath(new URL('../..', import.meta.url));
const FILES = ['telemetry', 'express', 'next', 'hono', 'fetch'].map((name) => `examples/otel/${name}.ts`);
const ORIGIN = 'http://app.localhost';
const JSON_ACCEPT = { accept: 'application/json' };
const SESSION = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' };

let sandbox: Sandbox;
let metricsUrl: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, reviewDelayMs: 0 });
  const port = await freePort();
  Object.assign(process.env, {
    IDV_BASE_URL: sandbox.url,
    IDV_API_KEY: sandbox.apiKey,
    VERIFY_KIT_SECRET: 'examples-otel-secret-of-32-characters-at-least',
    METRICS_PORT: String(port),
  });
  await import('../otel/telemetry.js');
  metricsUrl = `http://127.0.0.1:${port}/metrics`;
});

afterAll(async () => {
  // The SDK's shutdown stops the exporter's server; the API forgets it.
  await (metrics.getMeterProvider() as MeterProvider).shutdown?.();
  metrics.disable();
  await sandbox?.close();
});

test.each(FILES)('packages/otel/README.md shows %s verbatim', async (file) => {
  const readme = await readFile(`${root}/packages/otel/README.md`, 'utf8');
  const blocks = [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1]);
  expect(blocks).toContain(await readFile(`${root}/${file}`, 'utf8'));
});

/** The value of the Prometheus series `name` whose labels include `labels`, summed (0 when none). */
function valueIn(scrape: string, name: string, labels: Record<string, string>): number {
  return scrape
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .filter((line) => Object.entries(labels).every(([key, value]) => line.includes(`${key}="${value}"`)))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

const scrape = async () => (await fetch(metricsUrl)).text();

/** Each shell's example: one gated request refused, one session created, as its server runs them. */
const SHELLS: Record<string, () => Promise<void>> = {
  async express() {
    const { kit } = await import('../otel/express.js');
    const app = express();
    app.use(session({ secret: 'otel-example', resave: false, saveUninitialized: false }));
    app.use('/identity', kit.router);
    app.get('/account', kit.requireApproved(), (_req, res) => res.send('welcome'));
    const server: Server = await new Promise((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    try {
      const browser = new Browser(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      expect((await browser.get('/account', JSON_ACCEPT)).status).toBe(403);
      expect((await browser.post('/identity/session')).status).toBe(201);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await kit.close();
    }
  },
  async next() {
    const { kit } = await import('../otel/next.js');
    try {
      const gated = await kit.requireApproved()(new Request(`${ORIGIN}/account`, { headers: JSON_ACCEPT }));
      expect(gated.status).toBe(403);
      expect((await kit.handlers.POST(new Request(`${ORIGIN}/identity/session`, SESSION))).status).toBe(201);
    } finally {
      await kit.close();
    }
  },
  async hono() {
    const { kit } = await import('../otel/hono.js');
    const app = new Hono();
    app.route('/identity', kit.router);
    app.get('/account', kit.requireApproved(), (c) => c.text('welcome'));
    try {
      expect((await app.request('/account', { headers: JSON_ACCEPT })).status).toBe(403);
      expect((await app.request('/identity/session', SESSION)).status).toBe(201);
    } finally {
      await kit.close();
    }
  },
  async fetch() {
    const { kit } = await import('../otel/fetch.js');
    try {
      const gate = await kit.gate(new Request(`${ORIGIN}/account`, { headers: JSON_ACCEPT }));
      expect(gate.kind).toBe('refused');
      expect((await kit.handle(new Request(`${ORIGIN}/identity/session`, SESSION))).status).toBe(201);
    } finally {
      await kit.close();
    }
  },
};

describe('one line turns the series on in each shell (scraped from Prometheus)', () => {
  for (const [shell, run] of Object.entries(SHELLS)) {
    test(shell, async () => {
      const before = await scrape();
      await run();
      const after = await scrape();
      const added = (name: string, labels: Record<string, string>) =>
        valueIn(after, name, labels) - valueIn(before, name, labels);
      const refused = { result: 'refused', reason: 'no-binding' };
      expect(added('verify_kit_gate_decisions_total', refused)).toBe(1);
      expect(added('verify_kit_sessions_created_total', { owner: 'anonymous' })).toBe(1);
      const creation = { operation: 'createSession', http_response_status_code: '201' };
      expect(added('verify_kit_upstream_duration_count', creation)).toBe(1);
    });
  }
});
