// One instance of the Hono app (support/app.ts, on @hono/node-server) in a process of its own
// (testkit's startInstanceProcess): the kit from the environment, no store but its own memory.
import { serve } from '@hono/node-server';
import { announceListening, kitOptionsFromEnv } from '@verify-kit/testkit';
import { createVerifyKit } from '../../src/index.js';
import { appOf } from './app.js';

const kit = createVerifyKit(kitOptionsFromEnv());
const server = serve({ fetch: appOf(kit).fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
  announceListening(`http://127.0.0.1:${info.port}`),
);
process.once('SIGTERM', () => {
  void kit.close().then(() => server.close(() => process.exit(0)));
});
