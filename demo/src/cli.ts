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
  const demo = await startDemo(parsed.options);
  // One line, one URL: what a person opens.
  console.log(demo.url);

  let closing = false;
  const stop = () => {
    if (closing) return;
    closing = true;
    demo.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
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
