import { createVerifyKit } from '@verify-kit/core';
import { fetchDoorApp } from '../shared/fetch-door.js';
import { kitOptions } from '../shared/options.js';

// core's Fetch door on Deno, as a Deno user serves it: Deno.serve, the client's address from the
// handler's info (remoteAddr, the socket's).
const app = fetchDoorApp(createVerifyKit(kitOptions(Deno.env.toObject())));

Deno.serve(
  {
    hostname: '127.0.0.1',
    port: Number(Deno.env.get('PORT') ?? 8000),
    onListen: ({ hostname, port }) => console.log(`listening on http://${hostname}:${port}`),
  },
  (request, info) => app(request, { clientAddress: info.remoteAddr.hostname }),
);
