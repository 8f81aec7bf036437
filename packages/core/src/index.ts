// @verify-kit/core: verify-kit's runtime-neutral engine, on Web APIs only (no Node built-in, no
// Buffer, no undici or node-redis: scripts/neutral-bundle.mjs checks the bundle). This first landing
// holds its building blocks; the engine's request handling (handle, gate) comes next.

// verify-kit's one error class, @verify-kit/protocol's (the client's is the same).
export type { VerifyKitErrorCode as ErrorCode, VerifyKitErrorOptions } from '@verify-kit/protocol/errors';
export { isVerifyKitError, VerifyKitError } from '@verify-kit/protocol/errors';
export type { CookieOptions, SetCookieOptions } from './cookie-header.js';
export { cookieName, readCookie, serializeClearCookie, serializeCookie } from './cookie-header.js';
export type { CookieSecret } from './sealed-cookie.js';
export {
  cookieSecrets,
  MAX_SEALED_COOKIE_BYTES,
  MIN_COOKIE_SECRET_LENGTH,
  sealCookie,
  unsealCookie,
} from './sealed-cookie.js';
export type { VerifiedWebhook, VerifyWebhookInput } from './webhooks.js';
export { verifyWebhook } from './webhooks.js';
