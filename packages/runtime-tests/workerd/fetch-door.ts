import { createVerifyKit } from '@verify-kit/core';
import { type FetchApp, fetchDoorApp } from '../shared/fetch-door.js';
import { type AppEnv, kitOptions } from '../shared/options.js';

// core's Fetch door as a Cloudflare Worker: a module whose fetch is given the request, the bindings
// (vars and secrets: no process.env without nodejs_compat) and the execution context. The kit is made
// from the bindings on the isolate's first request and serves every request after it.
let app: FetchApp | undefined;

export default {
  fetch(request: Request, env: AppEnv, ctx: ExecutionContext): Promise<Response> {
    app ??= fetchDoorApp(createVerifyKit(kitOptions(env)));
    return app(request, {
      clientAddress: request.headers.get('cf-connecting-ip') ?? undefined,
      waitUntil: (work) => ctx.waitUntil(work),
    });
  },
};
