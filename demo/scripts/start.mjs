// `pnpm demo [--port N] [--host H]`: build what is needed, then start the demo server, which
// prints the one URL to open.
import { buildDemo } from './build.mjs';

buildDemo();
await import('../dist/server/cli.js');
