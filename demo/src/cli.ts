#!/usr/bin/env node
import { parseDemoArgs, USAGE } from './cli-options.js';
import { startDemo } from './start-demo.js';

async function main(): Promise<void> {
  let parsed: ReturnType<typeof parseDemoArgs>;
  try {
    parsed = parseDemoArgs(process.argv.slice(2), process.env);
  } catch (error) {
    console.error(`demo: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    process.exit(2);
  }
  if (parsed.help) {
    console.log(USAGE);
    return;
  }
  const host = parsed.options.host ?? '127.0.0.1';
  if (!isLoopback(host)) console.warn(offLoopbackWarning(host));
  const demo = await startDemo(parsed.options);
  // The first line, one URL: what a person opens. Then where the sandbox and its simulator are.
  console.log(demo.url);
  if (demo.sandbox !== undefined) {
    console.log(`sandbox (the service's stand-in): ${demo.sandbox.url}`);
    console.log(`phone simulator: ${demo.sandbox.url}/app`);
  }

  let closing = false;
  const stop = (how: 'now' | 'drain') => {
    if (closing) return;
    closing = true;
    (how === 'drain' ? demo.shutdown(parsed.options.drainMs ?? 5000) : demo.close()).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  // Ctrl-C stops at once; SIGTERM (a deploy, a container stop) drains first: GET /ready answers 503.
  process.on('SIGINT', () => stop('now'));
  process.on('SIGTERM', () => stop('drain'));
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function offLoopbackWarning(host: string): string {
  const line = '!'.repeat(72);
  return [
    line,
    `WARNING: the demo listens on ${host}, not only on this computer (127.0.0.1).`,
    'Anyone who can reach this machine can sign in, start verifications and read the activity',
    'log. The demo has no real accounts and its sandbox is not the real service: do not expose it',
    'to a network you do not trust. Use --host 127.0.0.1 unless you mean it.',
    line,
  ].join('\n');
}

main().catch((error: unknown) => {
  const code = (error as { code?: unknown }).code;
  if (code === 'EADDRINUSE') {
    console.error('demo: that port is already in use: pass another with --port, or --port 0 for a free one');
  } else {
    console.error(`demo: could not start: ${error instanceof Error ? error.message : String(error)}`);
  }
  process.exit(1);
});
