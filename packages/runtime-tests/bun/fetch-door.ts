import { createVerifyKit } from '@verify-kit/core';
import { fetchDoorApp } from '../shared/fetch-door.js';
import { kitOptions } from '../shared/options.js';

// core's Fetch door on Bun, as a Bun user serves it: Bun.serve, the client's address from
// server.requestIP (the socket's, never a header).
const app = fetchDoorApp(createVerifyKit(kitOptions(Bun.env)));

const server = Bun.serve({
  hostname: '127.0.0.1',
  port: Number(Bun.env.PORT ?? 3000),
  // Above the kit's longest long-poll (25 s): Bun closes a connection idle for 10 s by default.
  idleTimeout: 30,
  fetch: (request, server) => app(request, { clientAddress: server.requestIP(request)?.address }),
});
console.log(`listening on http://${server.hostname}:${server.port}`);
