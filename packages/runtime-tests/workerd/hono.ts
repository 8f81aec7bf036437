import { createVerifyKit } from '@verify-kit/hono';
import { honoApp } from '../shared/hono-app.js';
import { type AppEnv, kitOptions } from '../shared/options.js';

// The Hono shell as a Cloudflare Worker: the options as a function of the bindings (made on the
// isolate's first request), the app as the module's default export; the shell reads cf-connecting-ip
// and hands a webhook's follow-up to executionCtx.waitUntil.
export default honoApp(createVerifyKit<{ Bindings: AppEnv }>((env) => kitOptions(env)));
