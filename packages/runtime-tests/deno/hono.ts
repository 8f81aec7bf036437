import { createVerifyKit } from '@verify-kit/hono';
import { honoApp } from '../shared/hono-app.js';
import { kitOptions } from '../shared/options.js';

// The Hono shell on Deno: app.fetch given to Deno.serve, whose handler info (the second argument)
// the shell reads the client's address from (remoteAddr).
const app = honoApp(createVerifyKit(kitOptions(Deno.env.toObject())));

Deno.serve(
  {
    hostname: '127.0.0.1',
    port: Number(Deno.env.get('PORT') ?? 8000),
    onListen: ({ hostname, port }) => console.log(`listening on http://${hostname}:${port}`),
  },
  app.fetch,
);
