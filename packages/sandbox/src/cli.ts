#!/usr/bin/env node
import { isVerifyKitError } from '@verify-kit/client';
import { CliUsageError, parseCliArgs, USAGE } from './cli-args.js';
import type { Sandbox } from './options.js';
import { startSandbox } from './start.js';

function fail(message: string): never {
  process.stderr.write(`verify-kit sandbox: ${message}\n\n${USAGE}`);
  process.exit(2);
}

function isLoopback(host: string): boolean {
  return /^(localhost|127(\.\d{1,3}){3}|::1|\[::1\])$/i.test(host);
}

/** Listening beyond this machine: anyone who reaches it reads the key above and drives the sandbox. */
function offLoopbackWarning(host: string): string {
  const line = '!'.repeat(78);
  return [
    line,
    `!! WARNING: the sandbox listens on ${host}, not only on this machine.`,
    '!! Anyone who can reach it sees test sessions, can look sessions up by code and drive the',
    '!! simulator, and the API key printed above is not a secret. It is a test double: never put',
    '!! real people or real documents through it. Use --host 127.0.0.1 unless you mean this.',
    line,
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  let parsed: ReturnType<typeof parseCliArgs>;
  try {
    parsed = parseCliArgs(process.argv.slice(2));
  } catch (err) {
    if (err instanceof CliUsageError) fail(err.message);
    throw err;
  }
  if (parsed.help) {
    process.stdout.write(USAGE);
    return;
  }
  const { options } = parsed;

  let sandbox: Sandbox;
  try {
    sandbox = await startSandbox(options);
  } catch (err) {
    if (isVerifyKitError(err, 'INVALID_OPTIONS')) fail(err.message);
    if ((err as { code?: unknown }).code === 'EADDRINUSE') {
      fail(`port ${options.port} is already in use; choose another with --port`);
    }
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

  if (!isLoopback(options.host ?? '127.0.0.1')) {
    process.stderr.write(offLoopbackWarning(options.host ?? ''));
  }

  const stop = (signal: string) => {
    process.stdout.write(`${signal}: stopping the sandbox\n`);
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
