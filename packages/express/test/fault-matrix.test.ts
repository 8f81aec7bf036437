import {
  Browser,
  capturingLogger,
  expectKeyNeverLeaked,
  FAULTS,
  type Fault,
  listen,
  startFakeUpstream,
} from '@verify-kit/testkit';
import express from 'express';
import session from 'express-session';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createVerifyKit,
  type RequireApprovedOptions,
  type SessionResponseBody,
  type StatusResponseBody,
} from '../src/index.js';
import { startApp } from './support/app.js';
import { collectUnhandled } from './support/fixtures.js';

const API_KEY = 'sk_test_faults_5e1d0a77b3';
const problems = collectUnhandled();

afterAll(() => {
  expect(problems).toEqual([]);
  expectKeyNeverLeaked(API_KEY);
});

interface Expected {
  code: string;
  /** GET /status and POST /session (reusing, then creating) */
  status: number;
  reuse: number;
  create: number;
}

// A 404 is no failure: the service no longer has the identification (definitive.test.ts).
const FAILURES = FAULTS.filter((fault): fault is Exclude<Fault, '404'> => fault !== '404');

const EXPECTED: Record<Exclude<Fault, '404'>, Expected> = {
  refused: { code: 'UPSTREAM_UNAVAILABLE', status: 503, reuse: 503, create: 503 },
  timeout: { code: 'UPSTREAM_TIMEOUT', status: 504, reuse: 504, create: 504 },
  'slow-body': { code: 'UPSTREAM_TIMEOUT', status: 504, reuse: 504, create: 504 },
  '500': { code: 'UPSTREAM_UNAVAILABLE', status: 503, reuse: 503, create: 503 },
  '502-html': { code: 'UPSTREAM_UNAVAILABLE', status: 503, reuse: 503, create: 503 },
  'malformed-json': { code: 'UPSTREAM_BAD_RESPONSE', status: 502, reuse: 502, create: 502 },
  'wrong-shape': { code: 'UPSTREAM_BAD_RESPONSE', status: 502, reuse: 502, create: 502 },
  // Not a failure for the widget (phase in_review), but the gate fails closed on it (docs/architecture.md).
  'unknown-status': { code: 'UPSTREAM_UNKNOWN_STATUS', status: 200, reuse: 201, create: 201 },
  // The service asked to wait: the gate fails closed, while a browser's status is answered from
  // what the kit knows (read-budget.test.ts), as is a resume; only a new creation fails.
  '429': { code: 'UPSTREAM_RATE_LIMITED', status: 200, reuse: 201, create: 503 },
};

type ErrorJson = { error?: { code: string; message: string } };
const html = { accept: 'text/html', 'sec-fetch-mode': 'navigate' };

describe('a misbehaving upstream × (gate, /status, /session)', () => {
  it.each(FAILURES)('%s: fails closed with a typed error', async (fault) => {
    const expected = EXPECTED[fault];
    const upstream = await startFakeUpstream();
    const app = await startApp({ baseUrl: upstream.url, apiKey: API_KEY, timeoutMs: 250, retries: 0 });
    try {
      const bound = app.browser();
      expect((await bound.post('/identity/session')).status).toBe(201);
      if (fault === 'refused') await upstream.close();
      else upstream.mode = fault;

      // The gate: 503 with the code, JSON for API calls, a page in words for browser navigations;
      // never next().
      const gated = await Promise.all(['/api/data', '/account'].map((path) => bound.get<ErrorJson>(path)));
      for (const res of gated) {
        expect(res.status).toBe(503);
        expect(res.json.error?.code).toBe(expected.code);
      }
      const navigations = await Promise.all(['/api/data', '/account'].map((path) => bound.get(path, html)));
      for (const res of navigations) {
        expect(res.status).toBe(503);
        expect(res.headers['content-type']).toMatch(/^text\/html/);
        expect(res.text).toContain('We cannot check your identity verification right now');
        expect(res.text).toContain(`Error code: ${expected.code}`);
      }
      expect(app.passed).toBe(0);

      const status = await bound.get<StatusResponseBody & ErrorJson>('/identity/status');
      expect(status.status).toBe(expected.status);
      if (fault === 'unknown-status')
        expect(status.json).toMatchObject({ status: 'ON_HOLD_FOR_AUDIT', phase: 'in_review' });
      else if (fault === '429') expect(status.json.phase).toBe('awaiting_user');
      else expect(status.json.error?.code).toBe(expected.code);

      // statusOf throws, so the integrator's custom logic fails closed too (the test app answers 503).
      const custom = await bound.get<{ code?: string; phase?: string }>('/custom');
      if (fault === 'unknown-status')
        expect(custom.json).toMatchObject({ phase: 'in_review', approved: false });
      else expect(custom.json.code).toBe(expected.code);

      const reuse = await bound.post<SessionResponseBody & ErrorJson>('/identity/session');
      expect(reuse.status).toBe(expected.reuse);
      if (fault === 'unknown-status') expect(reuse.json.phase).toBe('in_review');
      else if (fault === '429') expect(reuse.json.phase).toBe('awaiting_user');
      else expect(reuse.json.error?.code).toBe(expected.code);

      const fresh = await app.browser().post<SessionResponseBody & ErrorJson>('/identity/session');
      expect(fresh.status).toBe(expected.create);
      if (fault === 'unknown-status') expect(fresh.json.phase).toBe('awaiting_user');
      else expect(fresh.json.error?.code).toBe(expected.code);

      // Messages are the kit's, never the upstream's words (its HTML, its error text).
      for (const res of [status, reuse, fresh])
        expect(res.text).not.toMatch(/boom|Bad Gateway|slow down|no such/);
      expect(app.passed).toBe(0);
    } finally {
      await app.close();
      if (fault !== 'refused') await upstream.close();
    }
  });
});

describe('requireApproved({ onUnavailable })', () => {
  it('answers upstream failures with the integrator’s handler, which has no way to pass the gate', async () => {
    const upstream = await startFakeUpstream();
    const kit = createVerifyKit({
      baseUrl: upstream.url,
      apiKey: API_KEY,
      workflowId: 'default',
      timeoutMs: 250,
      retries: 0,
      logger: capturingLogger(),
    });
    const seen: string[] = [];
    let passed = 0;
    const app = express();
    app.use(session({ secret: 's', resave: false, saveUninitialized: false }));
    app.use('/identity', kit.router);
    const handlers: Record<string, RequireApprovedOptions['onUnavailable']> = {
      custom: (_req, res, error) => {
        seen.push(error.code);
        res.status(503).type('text/plain').send(`come back later (${error.code})`);
      },
      throwing: () => {
        throw new Error('the integrator’s page failed');
      },
    };
    for (const [name, onUnavailable] of Object.entries(handlers)) {
      app.get(`/${name}`, kit.requireApproved({ onUnavailable }), (_req, res) => {
        passed++;
        res.send('the account');
      });
    }
    const server = await listen(app);
    try {
      const browser = new Browser(server.url);
      expect((await browser.post('/identity/session')).status).toBe(201);
      upstream.mode = '500';
      const custom = await browser.get('/custom', { accept: 'text/html' });
      expect([custom.status, custom.text]).toEqual([503, 'come back later (UPSTREAM_UNAVAILABLE)']);
      expect(seen).toEqual(['UPSTREAM_UNAVAILABLE']);
      const throwing = await browser.get<ErrorJson>('/throwing');
      expect(throwing.status).toBe(503);
      expect(passed).toBe(0);
      // A healthy service again: the same gates let an approved person through.
      upstream.mode = 'healthy';
      upstream.statuses.set([...upstream.statuses.keys()].at(-1)!, 'APPROVED');
      expect((await browser.get('/custom')).status).toBe(200);
      expect(passed).toBe(1);
    } finally {
      await kit.close();
      await server.close();
      await upstream.close();
    }
  });
});

describe('an answer about another identification', () => {
  it('fails closed, and once the service answers right again the approved person gets through', async () => {
    const upstream = await startFakeUpstream();
    const app = await startApp({ baseUrl: upstream.url, apiKey: API_KEY, retries: 0 });
    try {
      const bound = app.browser();
      expect((await bound.post('/identity/session')).status).toBe(201);
      upstream.statuses.set([...upstream.statuses.keys()].at(-1)!, 'APPROVED');
      upstream.mode = 'wrong-id';
      const refused = await bound.get<ErrorJson>('/api/data');
      expect([refused.status, refused.json.error?.code]).toEqual([503, 'UPSTREAM_BAD_RESPONSE']);
      expect(app.passed).toBe(0);
      // The failed read must not stay "in flight" for that identification.
      upstream.mode = 'healthy';
      expect((await bound.get('/api/data')).status).toBe(200);
      expect(app.passed).toBe(1);
    } finally {
      await app.close();
      await upstream.close();
    }
  });
});
