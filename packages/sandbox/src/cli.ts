#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { isVerifyKitError } from '@verify-kit/client';
import { z } from 'zod';
import type { SandboxOptions } from './options.js';
import { startSandbox } from './start.js';

const USAGE = `Usage: pnpm sandbox [options]

  --port N                  port to listen on (default 4010; 0 = random)
  --host H                  address to listen on (default 127.0.0.1)
  --api-key K               the x-api-key to accept (default: a random sk_sandbox_… key, printed)
  --base-url URL            public base address used in links (default: the listening URL)
  --workflows a,b           known workflow ids (default: default)
  --review-delay-ms MS      time of the automatic review (default 1500)
  --app-scheme S            deep link scheme (default idv)
  --webhook-url URL         where to send signed webhooks (with --webhook-secret)
  --webhook-secret whsec_…  Standard Webhooks secret (with --webhook-url)
  --rate-limit N            answer 429 beyond N /api/v1 requests per window and client
  --rate-limit-window-ms MS the rate-limit window (default 1000)
  --retention-ms MS         how long identifications stay readable after expiry (default 86400000)
  -h, --help                show this help
`;

const int = (name: string) =>
  z.string().regex(/^\d+$/, `--${name} takes a whole number`).transform(Number).optional();

const FlagsSchema = z
  .strictObject({
    port: int('port'),
    host: z.string().optional(),
    'api-key': z.string().optional(),
    'base-url': z.string().optional(),
    workflows: z.string().optional(),
    'review-delay-ms': int('review-delay-ms'),
    'app-scheme': z.string().optional(),
    'webhook-url': z.string().optional(),
    'webhook-secret': z.string().optional(),
    'rate-limit': int('rate-limit'),
    'rate-limit-window-ms': int('rate-limit-window-ms'),
    'retention-ms': int('retention-ms'),
    help: z.boolean().optional(),
  })
  .transform((f): SandboxOptions & { help?: boolean } => ({
    port: f.port ?? 4010,
    ...(f.host === undefined ? {} : { host: f.host }),
    ...(f['api-key'] === undefined ? {} : { apiKey: f['api-key'] }),
    ...(f['base-url'] === undefined ? {} : { baseUrl: f['base-url'] }),
    ...(f.workflows === undefined
      ? {}
      : {
          workflows: f.workflows
            .split(',')
            .map((w) => w.trim())
            .filter(Boolean),
        }),
    ...(f['review-delay-ms'] === undefined ? {} : { reviewDelayMs: f['review-delay-ms'] }),
    ...(f['app-scheme'] === undefined ? {} : { appScheme: f['app-scheme'] }),
    ...(f['webhook-url'] === undefined ? {} : { webhookUrl: f['webhook-url'] }),
    ...(f['webhook-secret'] === undefined ? {} : { webhookSecret: f['webhook-secret'] }),
    ...(f['rate-limit'] === undefined
      ? {}
      : { rateLimit: { requests: f['rate-limit'], windowMs: f['rate-limit-window-ms'] ?? 1000 } }),
    ...(f['retention-ms'] === undefined ? {} : { retentionMs: f['retention-ms'] }),
    ...(f.help === undefined ? {} : { help: f.help }),
  }));

const str = { type: 'string' } as const;

function fail(message: string): never {
  process.stderr.write(`verify-kit sandbox: ${message}\n\n${USAGE}`);
  process.exit(2);
}

async function main(): Promise<void> {
  let values: Record<string, unknown>;
  try {
    ({ values } = parseArgs({
      args: process.argv.slice(2).filter((a) => a !== '--'),
      strict: true,
      allowPositionals: false,
      options: {
        port: str,
        host: str,
        'api-key': str,
        'base-url': str,
        workflows: str,
        'review-delay-ms': str,
        'app-scheme': str,
        'webhook-url': str,
        'webhook-secret': str,
        'rate-limit': str,
        'rate-limit-window-ms': str,
        'retention-ms': str,
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    fail(err instanceof Error ? err.message : String(err));
  }
  const flags = FlagsSchema.safeParse(values);
  if (!flags.success) fail(flags.error.issues.map((i) => i.message).join('; '));
  const { help, ...options } = flags.data;
  if (help) {
    process.stdout.write(USAGE);
    return;
  }

  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  try {
    sandbox = await startSandbox(options);
  } catch (err) {
    if (isVerifyKitError(err, 'INVALID_OPTIONS')) fail(err.message);
    const code = (err as { code?: unknown }).code;
    if (code === 'EADDRINUSE') fail(`port ${options.port} is already in use; choose another with --port`);
    throw err;
  }

  process.stdout.write(
    [
      `verify-kit sandbox listening on ${sandbox.url}`,
      `  API base:   ${sandbox.baseUrl}/api/v1`,
      `  API key:    ${sandbox.apiKey}`,
      `  simulator:  ${sandbox.baseUrl}/app/`,
      `  workflows:  ${(options.workflows ?? ['default']).join(', ')}`,
      'Press Ctrl+C to stop.',
      '',
    ].join('\n'),
  );

  const stop = (signal: string) => {
    process.stdout.write(`\n${signal}: stopping the sandbox\n`);
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err) => {
  process.stderr.write(`verify-kit sandbox: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
