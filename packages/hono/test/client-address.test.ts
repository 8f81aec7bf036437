// The client's address for the limits: from the runtime's connection info (two real source addresses
// on Node), from the app's own reader, and one shared bucket (with a warning in production) when
// there is none. Then what Workers, Bun and Deno hand the app, through app.fetch's own arguments.
import { type Sandbox, startSandbox } from '@verify-kit/sandbox';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  bunClientAddress,
  cloudflareClientAddress,
  createVerifyKit,
  denoClientAddress,
  nodeClientAddress,
  runtimeClientAddress,
  type VerifyKitOptions,
} from '../src/index.js';
import { serveApp } from './support/serve.js';

const SECRET = 'a-test-secret-of-at-least-32-characters!';
/** Two creations per address a minute; browsers (cookies) are not what is counted here. */
const sessionLimit = { perClient: 100, perIp: 2, windowSeconds: 60 };
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, reviewDelayMs: 0 });
});
afterAll(() => sandbox.close());

function kitApp(options: Partial<VerifyKitOptions> = {}) {
  const kit = createVerifyKit({
    baseUrl: sandbox.url,
    apiKey: sandbox.apiKey,
    workflowId: 'default',
    secret: SECRET,
    sessionLimit,
    ...options,
  });
  const app = new Hono();
  app.route('/identity', kit.router);
  return { kit, app };
}

/** A creation as a new browser would send it (no cookie), straight into app.fetch with `env`. */
const create = (app: Hono, env?: unknown, headers: Record<string, string> = {}) =>
  app.fetch(
    new Request('http://127.0.0.1/identity/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin', ...headers },
      body: '{}',
    }),
    env,
  );

describe('on Node (@hono/node-server): the socket’s address', () => {
  it('two source addresses are counted apart by the creation limit', async () => {
    const { kit, app } = kitApp();
    const served = await serveApp(app);
    try {
      const statuses = async (address: string, times: number) => {
        const answers: number[] = [];
        for (let i = 0; i < times; i++)
          answers.push((await served.browserFrom(address).post('/identity/session')).status);
        return answers;
      };
      expect(await statuses('127.0.0.2', 3)).toEqual([201, 201, 429]);
      expect(await statuses('127.0.0.3', 3)).toEqual([201, 201, 429]);
      expect(await statuses('127.0.0.2', 1)).toEqual([429]);
    } finally {
      await served.close();
      await kit.close();
    }
  });

  it('a header a client sends is not an address: x-forwarded-for and cf-connecting-ip change nothing', async () => {
    const { kit, app } = kitApp();
    const served = await serveApp(app);
    try {
      const answers: number[] = [];
      for (let i = 0; i < 3; i++) {
        const browser = served.browserFrom('127.0.0.4');
        const spoofed = { 'x-forwarded-for': `203.0.113.${i}`, 'cf-connecting-ip': `198.51.100.${i}` };
        answers.push(
          (await browser.fetch('POST', '/identity/session', { json: {}, headers: spoofed })).status,
        );
      }
      expect(answers).toEqual([201, 201, 429]);
    } finally {
      await served.close();
      await kit.close();
    }
  });

  it("clientAddress: the app's own reader (behind a proxy, the header it sets)", async () => {
    const { kit, app } = kitApp({ clientAddress: (c) => c.req.header('x-real-ip') });
    const served = await serveApp(app);
    try {
      const from = async (address: string) =>
        (await served.browser().post('/identity/session', {}, { 'x-real-ip': address })).status;
      expect([await from('198.51.100.1'), await from('198.51.100.1'), await from('198.51.100.1')]).toEqual([
        201, 201, 429,
      ]);
      expect(await from('198.51.100.2')).toBe(201);
    } finally {
      await served.close();
      await kit.close();
    }
  });
});

describe('no address', () => {
  it('every client counts in one shared bucket, never no limit; a warning once in production', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    const warnings: string[] = [];
    const { kit, app } = kitApp({ logger: { warn: (message) => warnings.push(message) } });
    try {
      // app.fetch with no bindings: no socket to read (as under a runtime the kit does not know).
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push((await create(app)).status);
      expect(answers).toEqual([201, 201, 429]);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(
        /^clientAddress: this runtime gives no client address, so every client counts/,
      );
    } finally {
      vi.unstubAllEnvs();
      await kit.close();
    }
  });

  it('outside production, no warning', async () => {
    const warnings: string[] = [];
    const { kit, app } = kitApp({ logger: { warn: (message) => warnings.push(message) } });
    try {
      expect((await create(app)).status).toBe(201);
      expect(warnings).toEqual([]);
    } finally {
      await kit.close();
    }
  });
});

describe('what each runtime hands the app (app.fetch’s second argument, or a header on Workers)', () => {
  it('the reader follows the runtime Hono detects', () => {
    expect(runtimeClientAddress()).toBe(nodeClientAddress); // these tests run on Node
    expect(runtimeClientAddress('node')).toBe(nodeClientAddress);
    expect(runtimeClientAddress('bun')).toBe(bunClientAddress);
    expect(runtimeClientAddress('deno')).toBe(denoClientAddress);
    expect(runtimeClientAddress('workerd')).toBe(cloudflareClientAddress);
    expect(runtimeClientAddress('edge-light')).toBeUndefined();
    expect(runtimeClientAddress('other')).toBeUndefined();
  });

  const runtimes = [
    {
      name: 'Deno.serve (the handler info’s remoteAddr)',
      clientAddress: denoClientAddress,
      from: (address: string) => [{ remoteAddr: { hostname: address, port: 4711, transport: 'tcp' } }, {}],
    },
    {
      name: 'Bun.serve (server.requestIP)',
      clientAddress: bunClientAddress,
      from: (address: string) => [{ requestIP: () => ({ address, family: 'IPv4', port: 4711 }) }, {}],
    },
    {
      name: 'Cloudflare Workers (cf-connecting-ip)',
      clientAddress: cloudflareClientAddress,
      from: (address: string) => [{}, { 'cf-connecting-ip': address }],
    },
  ] as const;
  for (const { name, clientAddress, from } of runtimes) {
    it(`${name}: two clients are counted apart`, async () => {
      const { kit, app } = kitApp({ clientAddress });
      try {
        const status = async (address: string) => {
          const [env, headers] = from(address);
          return (await create(app, env, headers as Record<string, string>)).status;
        };
        expect([await status('192.0.2.1'), await status('192.0.2.1'), await status('192.0.2.1')]).toEqual([
          201, 201, 429,
        ]);
        expect(await status('192.0.2.2')).toBe(201);
      } finally {
        await kit.close();
      }
    });
  }
});
