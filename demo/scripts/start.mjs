// `pnpm demo [--port N] [--host H]`: builds what changed since the last start (nothing, usually),
// then starts the demo server, which prints the one URL to open.
import { buildDemoOrExit } from './build.mjs';

await buildDemoOrExit();
await import('../dist/server/cli.js');
