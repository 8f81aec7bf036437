// `pnpm demo [--port N] [--host H]`: builds what is needed, then starts the demo server, which
// prints the one URL to open.
import { buildDemo } from './build.mjs';

await buildDemo();
await import('../dist/server/cli.js');
