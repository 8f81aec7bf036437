// @verify-kit/hono: verify-kit on Hono (Node through @hono/node-server, Bun, Deno, Cloudflare
// Workers), a thin shell over @verify-kit/core's Fetch door. Runtime-neutral: nothing here imports
// Node (the Redis pieces, Node only, are @verify-kit/hono/redis).

export type {
  CookieSecret,
  ErrorCode,
  GateResult,
  GateRules,
  KitHealth,
  KitRuntime,
  StatusOfOptions,
  StatusOfResult,
  VerifyKitErrorOptions,
} from '@verify-kit/core';
export { isVerifyKitError, VerifyKitError, VISITOR_COOKIE } from '@verify-kit/core';
export type { ClientAddressOf } from './client-address.js';
export {
  bunClientAddress,
  cloudflareClientAddress,
  denoClientAddress,
  nodeClientAddress,
  runtimeClientAddress,
} from './client-address.js';
export type { VerifyKit, VerifyKitOptions, VerifyKitOptionsFrom } from './kit.js';
export { createVerifyKit, DEFAULT_BASE_PATH } from './kit.js';
