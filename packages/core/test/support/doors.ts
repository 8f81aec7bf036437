// The parity tests' doors (parity-*.test.ts). One protocol, two doors: the Express kit (its router
// under /identity, express-session) and core's Fetch door (kit.handle served by a Node bridge,
// basePath /identity), each on its own real sandbox, are driven through the same sequences over real
// HTTP and must answer alike: status, the headers the widget and caches read, and the JSON once ids,
// codes, links, times and QR images are placeholders. Cookie names differ by design (connect.sid +
// vk_binding, vk_visitor): what is compared is what the widget relies on (a cookie is set, HttpOnly,
// Path=/; kept, it continues the verification). A path the kit does not know is the Express app's
// own 404 there, so it is left out; fetch-door.test.ts covers the Fetch door's ROUTE_NOT_FOUND.
import { generateWebhookSecret } from '@verify-kit/client';
import { type Sandbox, startSandbox } from '@verify-kit/sandbox';
import { Browser, type BrowserResponse, capturingLogger, fromAddress, serveFetch } from '@verify-kit/testkit';
import { afterAll, beforeAll, expect } from 'vitest';
import { startApp } from '../../../express/test/support/app.js';
import { createVerifyKit, type VerifyKitOptions } from '../../src/index.js';

export const API_KEY = 'sk_test_parity_5d0c2e8a41';
const COOKIE_SECRET = 'parity-test-cookie-secret-0123456789abcdef';
export const WEBHOOK_SECRET = generateWebhookSecret();

/** The options both kits get (the rest: each door's defaults, equal by design). */
export type SharedOptions = Pick<
  VerifyKitOptions,
  'webhookSecret' | 'pollIntervalMs' | 'longPoll' | 'sessionLimit'
> & {
  /** Ignores its request (an Express one, or a Fetch Request): fits both kits. */
  sessionOptions?: () => Promise<{ sendOTP: boolean }>;
};

export interface Door {
  name: 'express' | 'fetch';
  url: string;
  sandbox: Sandbox;
  /** A new browser; `from`: its connections' source address (127.0.0.x), default 127.0.0.1. */
  browser(from?: string): Browser;
  close(): Promise<void>;
}

function door(name: Door['name'], url: string, sandbox: Sandbox, closeServer: () => Promise<void>): Door {
  const agents: ReturnType<typeof fromAddress>[] = [];
  return {
    name,
    url,
    sandbox,
    browser(from) {
      if (from === undefined) return new Browser(url);
      const dispatcher = fromAddress(from);
      agents.push(dispatcher);
      return new Browser(url, undefined, { dispatcher });
    },
    async close() {
      await Promise.all(agents.map((agent) => agent.close()));
      await closeServer();
      await sandbox.close();
    },
  };
}

async function expressDoor(options: SharedOptions): Promise<Door> {
  const sandbox = await startSandbox({ apiKey: API_KEY, reviewDelayMs: 0 });
  const app = await startApp({ baseUrl: sandbox.url, apiKey: API_KEY, ...options });
  return door('express', app.url, sandbox, () => app.close());
}

async function fetchDoor(options: SharedOptions): Promise<Door> {
  const sandbox = await startSandbox({ apiKey: API_KEY, reviewDelayMs: 0 });
  const kit = createVerifyKit({
    baseUrl: sandbox.url,
    apiKey: API_KEY,
    workflowId: 'default',
    basePath: '/identity',
    secret: COOKIE_SECRET,
    logger: capturingLogger(),
    ...options,
  });
  const server = await serveFetch((request, context) => kit.handle(request, context));
  return door('fetch', server.url, sandbox, async () => {
    await kit.close();
    await server.close();
  });
}

/** Both doors with the same options, for the tests of the enclosing describe. */
export function useDoors(options: SharedOptions) {
  const doors = {} as { express: Door; fetch: Door };
  beforeAll(async () => {
    [doors.express, doors.fetch] = await Promise.all([expressDoor(options), fetchDoor(options)]);
  });
  afterAll(async () => {
    await Promise.all([doors.express?.close(), doors.fetch?.close()]);
  });
  return doors;
}

/** Runs `sequence` on each door in turn and expects the same record; returns it. */
export async function alike<T>(doors: { express: Door; fetch: Door }, sequence: (door: Door) => Promise<T>) {
  const express = await sequence(doors.express);
  const fetch = await sequence(doors.fetch);
  expect(fetch).toEqual(express);
  return express;
}

const ISO_TIME = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
/** Fields whose value is the session's own (a code, a picture): equal only to themselves. */
const OPAQUE: Record<string, string> = { sessionCode: '<code>', qrImage: '<qr image>' };

/**
 * A JSON answer with what differs between two runs as placeholders: the sandbox's address, ids,
 * timestamps, the QR URL's version, the session code and the QR image.
 */
function normalize(value: unknown, sandboxUrl: string): unknown {
  if (Array.isArray(value)) return value.map((item) => normalize(item, sandboxUrl));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key,
        typeof item === 'string' && key in OPAQUE ? OPAQUE[key] : normalize(item, sandboxUrl),
      ]),
    );
  }
  if (typeof value !== 'string') return value;
  return value
    .split(sandboxUrl)
    .join('<sandbox>')
    .replace(ISO_TIME, '<time>')
    .replace(UUID, '<id>')
    .replace(/([?&]v=)[\w-]+/, '$1<v>');
}

const COMPARED = [
  'content-type',
  'cache-control',
  'allow',
  'retry-after',
  'location',
  'x-content-type-options',
  'content-security-policy',
] as const;

/** What the widget (and a cache) sees of one answer, comparable across doors. */
export function seen(res: BrowserResponse, door: Door) {
  const headers: Record<string, string> = {};
  for (const name of COMPARED) {
    const value = res.headers[name];
    if (typeof value !== 'string') continue;
    // Seconds that count down (a cache's lifetime, a limit's window) as their shape; a 1 exactly.
    headers[name] = value.replace(/max-age=\d+/, 'max-age=<s>').replace(/^(?!1$)\d+$/, '<s>');
  }
  const cookies = [res.headers['set-cookie'] ?? []].flat();
  const type = headers['content-type'] ?? '';
  return {
    status: res.status,
    headers,
    body:
      type.startsWith('application/json') && res.text !== ''
        ? normalize(res.json, door.sandbox.url)
        : res.text.slice(0, 5),
    // What the widget relies on: set or cleared, and never readable by script, for the whole site.
    cookies: [...new Set(cookies.map((line) => (/max-age=0/i.test(line) ? 'cleared' : 'set')))].sort(),
    cookiesHttpOnlyRootPath: cookies.every(
      (line) => /;\s*HttpOnly/i.test(line) && /;\s*Path=\/(;|$)/.test(line),
    ),
  };
}

/**
 * The widget protocol's options. Only a webhook wakes a long-poll quickly: a waiting long-poll
 * re-reads once a minute.
 */
export const WIDGET_OPTIONS = {
  webhookSecret: WEBHOOK_SECRET,
  pollIntervalMs: 60_000,
  sessionOptions: async () => ({ sendOTP: false }),
} satisfies SharedOptions;
