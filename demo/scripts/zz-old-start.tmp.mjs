import { buildDemo } from './zz-old-build.tmp.mjs';

await buildDemo();
await import('../dist/server/cli.js');
