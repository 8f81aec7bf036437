import { createVerifyKit } from '@verify-kit/hono';
import { honoApp } from '../shared/hono-app.js';
import { kitOptions } from '../shared/options.js';

// The Hono shell on Bun: app.fetch given to Bun.serve, whose server (the second argument) the shell
// asks for the client's address (requestIP).
const app = honoApp(createVerifyKit(kitOptions(Bun.env)));

const server = Bun.serve({
  hostname: '127.0.0.1',
  port: Number(Bun.env.PORT ?? 3000),
  // Above the kit's longest long-poll (25 s): Bun closes a connection idle for 10 s by default.
  idleTimeout: 30,
  fetch: app.fetch,
});
console.log(`listening on http://${server.hostname}:${server.port}`);
