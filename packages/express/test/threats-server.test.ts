// The threat model of SECURITY.md, continued (threats.test.ts has the browser-side threats): key
// leakage, oversize bodies, slow clients and failing open, one describe per threat.
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createConnection } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inspect } from 'node:util';
import { generateWebhookSecret } from '@verify-kit/client';
import {
  Browser,
  capturingLogger,
  deliverWebhook,
  listen,
  logLines,
  rawExchange,
  startFakeUpstream,
} from '@verify-kit/testkit';
import express from 'express';
import session from 'express-session';
import { describe, expect, it } from 'vitest';
import { createVerifyKit, type StatusResponseBody, type VerifyKit } from '../src/index.js';
import { startApp } from './support/app.js';
import { startVerificationIn, useSandboxApp } from './support/fixtures.js';

const API_KEY = 'sk_test_threats_4b9c2e8f10';
const SECRET = generateWebhookSecret();
const html = { accept: 'text/html', 'sec-fetch-mode': 'navigate' };
type ErrorJson = { error: { code: string; message: string } };

const context = useSandboxApp(API_KEY, { webhookSecret: SECRET });
const startVerification = (browser: Browser) => startVerificationIn(context.sandbox, browser);
const WIDGET = fileURLToPath(new URL('../../widget', import.meta.url));

/** The paths of the files in `dir` whose names match; none if it does not exist (e.g. not built). */
const filesIn = (dir: string, pattern: RegExp) =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((name) => pattern.test(name))
        .map((name) => path.join(dir, name))
    : [];

describe('Key leakage: the API key reaches a browser, a log line or an error message', () => {
  // Also proven: every test file ends with expectKeyNeverLeaked (every response and log line of its
  // run), and security.test.ts "a wrong API key". Here: an upstream that echoes the key everywhere.
  it('an upstream that echoes the key in bodies, headers and errors never gets it past the kit', async () => {
    const key = 'sk_test_echoed_9a8b7c6d5e';
    const echo = await startEchoUpstream();
    const lines: string[] = [];
    const thrown: unknown[] = [];
    const kit = createVerifyKit({
      baseUrl: echo.url,
      apiKey: key,
      workflowId: 'default',
      retries: 0,
      logger: capturingLogger(lines),
    });
    const server = await listen(siteCatching(kit, thrown));
    try {
      const browser = new Browser(server.url);
      const seen: string[] = [];
      const visit = async () => {
        for (const res of [
          await browser.post('/identity/session', { restart: true }),
          await browser.get('/identity/status'),
          await browser.get('/identity/qr.svg'),
          await browser.get('/gated'),
          await browser.get('/custom'),
          await browser.get('/verify'),
        ]) {
          seen.push(`${JSON.stringify(res.headers)}\n${res.text}`);
        }
      };
      for (const next of ['ok', 500, 400, 401, 404, 429, 'html'] as const) {
        await visit();
        echo.mode = next;
      }
      await visit();
      expect(thrown.length).toBeGreaterThan(5);
      for (const text of seen) expect(text).not.toContain(key);
      for (const line of lines) expect(line).not.toContain(key);
      // What an integrator's `console.error(error)` would print: message, body, cause, stack.
      for (const error of thrown) expect(inspect(error, { depth: 10 })).not.toContain(key);
    } finally {
      await kit.close();
      await server.close();
      await echo.close();
    }
  });

  it('the kit’s logger scrubs the key from what the integrator’s own code puts in an error', async () => {
    const lines: string[] = [];
    const leaky = await startApp({
      baseUrl: context.sandbox.url,
      apiKey: API_KEY,
      logger: capturingLogger(lines),
      sessionOptions: () => {
        throw new Error(`could not build options with ${API_KEY}`);
      },
    });
    try {
      const res = await leaky.browser().post<ErrorJson>('/identity/session');
      expect([res.status, res.json.error.code]).toEqual([500, 'SESSION_OPTIONS_FAILED']);
      expect(res.text).not.toContain(API_KEY);
      expect(lines.some((line) => line.includes('could not build options with [redacted]'))).toBe(true);
      logLines.push(...lines);
    } finally {
      await leaky.close();
    }
  });
});

describe('Key leakage: the browser-side widget carries the key or talks to the upstream', () => {
  it('the widget (source and built bundle) holds no key, calls no upstream API and imports no server code', () => {
    // The sources, and the built module with the locale files it loads on demand.
    const files = [
      ...filesIn(path.join(WIDGET, 'src'), /\.ts$/),
      ...filesIn(path.join(WIDGET, 'dist'), /^verify-identity\..*\.js$/),
    ];
    expect(files.length, 'packages/widget/src has no sources to scan').toBeGreaterThan(0);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const name = path.relative(WIDGET, file);
      for (const forbidden of [
        /x-api-key/i,
        /IDV_API_KEY/,
        /\bapiKey\b/,
        /\/api\/v1\//,
        /\bsk_(test|live|sandbox)_/,
      ]) {
        expect(forbidden.test(text), `${name} matches ${forbidden}`).toBe(false);
      }
      // Only type imports from the kit (erased at build), never the client or the express kit at run time.
      for (const line of text.split('\n')) {
        if (/^\s*import\s(?!type\b)/.test(line)) {
          expect(line, name).not.toMatch(/@verify-kit\/(client|express|sandbox)/);
        }
      }
    }
  });
});

describe('Oversize bodies: a huge request exhausts memory or crashes the server', () => {
  // Also proven: security.test.ts "an oversized body" (POST /session, 10 kB → 413). Here: the
  // webhook's 256 kB limit, a declared length that never comes, chunked bodies, huge headers.
  it('answers 413 PAYLOAD_TOO_LARGE at once, without reading, and changes nothing', async () => {
    const victim = context.app.browser();
    const { identificationId } = await startVerification(victim);
    const { port } = new URL(context.app.url);
    const head = (path: string, length: string) =>
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${length}\r\nConnection: close\r\n\r\n`;
    // Only the headers are sent: the answer comes before the (never sent) gigabyte.
    for (const route of ['/identity/session', '/identity/webhook']) {
      const text = await rawExchange(Number(port), [head(route, String(2 ** 30))]);
      expect(text).toMatch(/^HTTP\/1\.1 413 /);
      expect(text).toContain('"code":"PAYLOAD_TOO_LARGE"');
    }
    // Chunked (no declared length): cut off past the limit.
    const big = Buffer.alloc(300 * 1024, 0x61);
    const chunked = await rawExchange(Number(port), [
      `POST /identity/webhook HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
        `Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n${big.length.toString(16)}\r\n`,
      big,
      '\r\n0\r\n\r\n',
    ]);
    expect(chunked).toMatch(/^HTTP\/1\.1 413 /);
    const signed = await deliverWebhook(context.app.browser(), {
      secret: SECRET,
      identificationId,
      rawBody: `{"pad":"${'x'.repeat(300 * 1024)}"}`,
    });
    expect([signed.status, signed.json.error?.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    // Headers beyond Node's limit (16 kB) are refused by Node itself, before the context.app.
    const huge = await rawExchange(Number(port), [
      `GET /identity/status HTTP/1.1\r\nHost: x\r\nX-Pad: ${'a'.repeat(32 * 1024)}\r\nConnection: close\r\n\r\n`,
    ]);
    expect(huge).toMatch(/^HTTP\/1\.1 431 /);
    expect((await victim.get<StatusResponseBody>('/identity/status')).json.phase).toBe('awaiting_user');
  });
});

describe('Slow clients (slowloris): connections held open by headers or bodies that never finish', () => {
  // The kit cannot set the server's timeouts: the README's "Server timeouts" settings do. This is a
  // server configured that way (with small numbers, so the test is quick).
  it('a server configured as the README recommends drops slow headers and slow bodies, and keeps long-polls', async () => {
    const kit = createVerifyKit({
      baseUrl: context.sandbox.url,
      apiKey: API_KEY,
      workflowId: 'default',
      pollIntervalMs: 50,
      logger: capturingLogger(),
    });
    const site = express();
    site.use(session({ secret: 's', resave: false, saveUninitialized: false }));
    site.use('/identity', kit.router);
    const server = http.createServer(
      { headersTimeout: 200, requestTimeout: 400, connectionsCheckingInterval: 50 },
      site,
    );
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    /** Sends one byte every 100 ms; resolves with what came back once the server closes the socket. */
    const drip = (head: string, drops: string) =>
      new Promise<{ text: string; sentAll: boolean }>((resolve) => {
        const socket = createConnection(port, '127.0.0.1');
        let text = '';
        let sent = 0;
        socket.on('data', (chunk) => {
          text += String(chunk);
        });
        socket.on('error', () => {});
        socket.write(head);
        const timer = setInterval(() => {
          if (sent < drops.length && !socket.destroyed) socket.write(drops[sent++]!);
        }, 100);
        socket.on('close', () => {
          clearInterval(timer);
          resolve({ text, sentAll: sent === drops.length });
        });
      });
    try {
      const slowHeaders = await drip(
        'GET /identity/status HTTP/1.1\r\nHost: x\r\n',
        `X-Slow: ${'a'.repeat(60)}\r\n\r\n`,
      );
      expect(slowHeaders.sentAll).toBe(false);
      expect(slowHeaders.text).toMatch(/^HTTP\/1\.1 408 /);
      const slowBody = await drip(
        'POST /identity/session HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 60\r\n\r\n',
        `{"restart":true${' '.repeat(44)}}`,
      );
      expect(slowBody.sentAll).toBe(false);
      expect(slowBody.text).toMatch(/^HTTP\/1\.1 408 /);

      // requestTimeout bounds receiving the request, not answering it: a 1 s long-poll still answers.
      const browser = new Browser(`http://127.0.0.1:${port}`);
      expect((await browser.post('/identity/session')).status).toBe(201);
      const poll = await browser.get<StatusResponseBody>('/identity/status?wait=1&since=awaiting_user');
      expect([poll.status, poll.json.phase]).toEqual([200, 'awaiting_user']);
    } finally {
      await kit.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('Fail open: a failing or lying upstream lets an unverified person through', () => {
  // Also proven: fault-matrix.test.ts (ten kinds of upstream failure × gate, /status, /session: never
  // next()), security.test.ts "a webhook is only a hint". Here: a person approved a moment ago, with a
  // read on every request (inside a visit the stored decision answers for staleIfErrorMs: outage.test.ts).
  it("freshness 'every-request': an approval seen a moment ago does not open the gate once the upstream fails", async () => {
    const upstream = await startFakeUpstream();
    const fragile = await startApp({
      baseUrl: upstream.url,
      apiKey: API_KEY,
      freshness: 'every-request',
      timeoutMs: 250,
      retries: 0,
      maxReadsPerSecond: 1000,
    });
    try {
      const person = fragile.browser();
      await person.post('/identity/session');
      const identificationId = [...upstream.statuses.keys()].at(-1)!;
      upstream.statuses.set(identificationId, 'APPROVED');
      expect((await person.get('/api/data')).status).toBe(200);
      for (const fault of ['500', 'timeout', 'malformed-json', 'unknown-status'] as const) {
        upstream.mode = fault;
        const res = await person.get<ErrorJson>('/api/data');
        expect(res.status, fault).toBe(503);
        expect(res.json.error.code).toMatch(/^UPSTREAM_/);
        const navigation = await person.get('/account', html);
        expect(navigation.status, fault).toBe(503);
      }
      upstream.mode = 'healthy';
      expect((await person.get('/api/data')).status).toBe(200);
      expect(fragile.passed).toBe(2);
    } finally {
      await fragile.close();
      await upstream.close();
    }
  });
});

type EchoMode = 'ok' | 500 | 400 | 401 | 404 | 429 | 'html';

/** An upstream that echoes the API key it receives in every body, header and error it sends. */
async function startEchoUpstream() {
  const state = { mode: 'ok' as EchoMode };
  const server = await listen((req, res) => {
    const received = String(req.headers['x-api-key']);
    res.setHeader('x-echo-key', received);
    const url = req.url ?? '';
    if (state.mode === 'html') {
      res.writeHead(502, { 'content-type': 'text/html' }).end(`<h1>bad gateway for ${received}</h1>`);
      return;
    }
    if (state.mode !== 'ok') {
      res
        .writeHead(state.mode, { 'content-type': 'application/json', 'retry-after': '0' })
        .end(JSON.stringify({ error: { code: 'ECHO', message: `key ${received} refused` } }));
      return;
    }
    res.writeHead(url.includes('/verification-sessions') ? 201 : 200, { 'content-type': 'application/json' });
    if (url.endsWith('/verify')) res.end(JSON.stringify({ verified: false, note: received }));
    else if (url.includes('/identifications/')) {
      res.end(JSON.stringify({ id: url.split('/').at(-1), status: 'IN_MANUAL_REVIEW', note: received }));
    } else {
      res.end(
        JSON.stringify({
          id: 'vs-1',
          identificationId: 'idn-1',
          sessionCode: 'ABCD2345',
          deepLink: 'idv://app-url/x/verification-session/vs-1',
          qrCodeLink: 'http://x/qr',
          sessionPageLink: 'http://x/page',
          note: received,
        }),
      );
    }
  });
  return Object.assign(state, { url: server.url, close: () => server.close() });
}

/** An app with the kit whose own routes catch the kit's errors into `thrown` (as an integrator's would). */
function siteCatching(kit: VerifyKit, thrown: unknown[]) {
  const site = express();
  site.use(session({ secret: 's', resave: false, saveUninitialized: false }));
  site.use('/identity', kit.router);
  site.get('/gated', kit.requireApproved(), (_req, res) => res.json({ passed: true }));
  const catching =
    (run: (req: express.Request) => Promise<unknown>, status: number): express.RequestHandler =>
    async (req, res) => {
      try {
        res.json(await run(req));
      } catch (error) {
        thrown.push(error);
        res.status(status).json({ failed: true });
      }
    };
  site.get(
    '/custom',
    catching((req) => kit.statusOf(req), 503),
  );
  site.get(
    '/verify',
    catching((req) => kit.verify(req, { type: 'DOCUMENT_COUNTRY', value: 'TUR' }), 502),
  );
  return site;
}
