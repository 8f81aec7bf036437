import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { isVerifyKitError } from '@verify-kit/client';
import { describe, expect, it } from 'vitest';
import { CliUsageError, parseCliArgs } from '../src/cli-args.js';
import { startSandbox } from '../src/index.js';

describe('startSandbox options', () => {
  it('defaults: 127.0.0.1, a random port, a random sk_sandbox_ key', async () => {
    const a = await startSandbox();
    const b = await startSandbox();
    try {
      expect(a.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(a.port).toBeGreaterThan(0);
      expect(a.port).not.toBe(b.port);
      expect(a.apiKey).toMatch(/^sk_sandbox_[A-Za-z0-9_-]{20,}$/);
      expect(a.apiKey).not.toBe(b.apiKey);
      expect(a.baseUrl).toBe(a.url);
      expect((await fetch(`${a.url}/`)).status).toBe(200);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it.each([
    ['an unknown option', { colour: 'blue' }, 'colour'],
    ['a port out of range', { port: 70000 }, 'port'],
    ['a negative review delay', { reviewDelayMs: -1 }, 'reviewDelayMs'],
    ['a key with spaces', { apiKey: 'has space' }, 'apiKey'],
    ['a base URL that is not http(s)', { baseUrl: 'ftp://example.test' }, 'baseUrl'],
    ['no workflows', { workflows: [] }, 'workflows'],
    ['a webhook URL without a secret', { webhookUrl: 'http://127.0.0.1:1/h' }, 'webhookSecret'],
    [
      'a secret without whsec_',
      { webhookUrl: 'http://127.0.0.1:1/h', webhookSecret: 'abc' },
      'webhookSecret',
    ],
    ['a rate limit of 0', { rateLimit: { requests: 0, windowMs: 1000 } }, 'rateLimit.requests'],
    ['a clock that is not a function', { now: 5 }, 'now'],
  ])('throws INVALID_OPTIONS for %s', async (_name, options, path) => {
    const error = await startSandbox(options as never).catch((e: unknown) => e);
    expect(isVerifyKitError(error, 'INVALID_OPTIONS')).toBe(true);
    expect((error as Error).message).toContain(path);
  });

  it('never puts the API key in an option error', async () => {
    const error = await startSandbox({ apiKey: 'secret-key-123', port: -1 }).catch((e: unknown) => e);
    expect((error as Error).message).not.toContain('secret-key-123');
  });

  it('now() is the sandbox clock: the injected time source plus every advanceClock', async () => {
    let base = Date.parse('2030-01-01T00:00:00Z');
    const s = await startSandbox({ now: () => base });
    try {
      expect(s.now()).toBe(base);
      base += 1000;
      expect(s.now()).toBe(Date.parse('2030-01-01T00:00:01Z'));
      s.advanceClock(60_000);
      expect(s.now()).toBe(Date.parse('2030-01-01T00:01:01Z'));
      // The HTTP surface reads the same clock.
      const clock = (await (await fetch(`${s.url}/sandbox/clock`)).json()) as { now: string };
      expect(clock.now).toBe('2030-01-01T00:01:01.000Z');
    } finally {
      await s.close();
    }
  });

  it('close() is idempotent and frees the port', async () => {
    const s = await startSandbox();
    await s.close();
    await s.close();
    await expect(fetch(`${s.url}/`)).rejects.toThrow();
  });
});

describe('CLI flags', () => {
  it('maps every flag to an option', () => {
    expect(
      parseCliArgs([
        '--port',
        '0',
        '--host',
        '127.0.0.1',
        '--api-key',
        'K',
        '--base-url',
        'http://localhost:4010',
        '--review-delay-ms',
        '0',
        '--webhook-url',
        'http://127.0.0.1:3000/identity/webhook',
        '--webhook-secret',
        'whsec_c2VjcmV0',
        '--workflows',
        'a, b',
        '--app-scheme',
        'idv',
        '--deep-link-style',
        'sdk',
        '--rate-limit',
        '10',
        '--rate-limit-window-ms',
        '500',
        '--retention-ms',
        '1000',
      ]),
    ).toEqual({
      help: false,
      options: {
        port: 0,
        host: '127.0.0.1',
        apiKey: 'K',
        baseUrl: 'http://localhost:4010',
        reviewDelayMs: 0,
        webhookUrl: 'http://127.0.0.1:3000/identity/webhook',
        webhookSecret: 'whsec_c2VjcmV0',
        workflows: ['a', 'b'],
        appScheme: 'idv',
        deepLinkStyle: 'sdk',
        rateLimit: { requests: 10, windowMs: 500 },
        retentionMs: 1000,
      },
    });
  });

  it('defaults the port to 4010 and ignores a leading --', () => {
    expect(parseCliArgs(['--', '--api-key', 'K'])).toEqual({
      help: false,
      options: { port: 4010, apiKey: 'K' },
    });
    expect(parseCliArgs(['-h'])).toEqual({ help: true });
  });

  it.each([
    [['--bogus']],
    [['--port', 'abc']],
    [['--port']],
    [['positional']],
    [['--rate-limit-window-ms', '5']],
  ])('rejects %j', (argv) => {
    expect(() => parseCliArgs(argv)).toThrow(CliUsageError);
  });
});

describe('the CLI process', () => {
  const cli = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
  const run = (args: string[]) =>
    spawn(process.execPath, ['--conditions=source', '--import', 'tsx', cli, ...args], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  const output = (child: ChildProcess, stream: 'stdout' | 'stderr') => {
    let text = '';
    child[stream]?.on('data', (c: Buffer) => {
      text += c.toString('utf8');
    });
    return () => text;
  };

  it('prints its URL, key and simulator, serves, and stops cleanly on SIGTERM', async () => {
    const child = run(['--port', '0', '--api-key', 'K-cli', '--review-delay-ms', '0']);
    const stdout = output(child, 'stdout');
    for (let i = 0; i < 400 && !stdout().includes('simulator:'); i++)
      await new Promise((r) => setTimeout(r, 25));
    const url = stdout().match(/listening on (http:\/\/127\.0\.0\.1:\d+)/)?.[1];
    expect(url).toBeDefined();
    expect(stdout()).toContain('API key:    K-cli');
    expect(stdout()).toContain(`simulator:  ${url}/app/`);
    const res = await fetch(`${url}/api/v1/identifications/x`, { headers: { 'x-api-key': 'K-cli' } });
    expect(res.status).toBe(404);
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  });

  it('exits with 2 and the usage on a bad flag or option', async () => {
    // Flag errors are covered above; this one comes from startSandbox's option schema.
    const child = run(['--port', '0', '--webhook-url', 'http://127.0.0.1:1/h']);
    const stderr = output(child, 'stderr');
    const [code] = await once(child, 'exit');
    expect(code).toBe(2);
    expect(stderr()).toContain('webhookUrl and webhookSecret go together');
    expect(stderr()).toContain('Usage: npx verify-kit-sandbox');
  });

  it('warns loudly when it listens beyond this machine', async () => {
    const child = run(['--port', '0', '--host', '0.0.0.0']);
    const stderr = output(child, 'stderr');
    for (let i = 0; i < 400 && !stderr().includes('WARNING'); i++)
      await new Promise((r) => setTimeout(r, 25));
    expect(stderr()).toContain('WARNING: the sandbox listens on 0.0.0.0');
    child.kill('SIGTERM');
    await once(child, 'exit');
  });
});
