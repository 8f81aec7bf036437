import { startDemo } from '@verify-kit/demo';

const demo = await startDemo({ port: 0, reviewDelayMs: 50 });
// demo.url, demo.sandbox (url, apiKey, advanceClock, now, close), demo.close()

const home = await fetch(demo.url);
await demo.close();
if (!home.ok) throw new Error(`GET ${demo.url}: ${home.status}`);
