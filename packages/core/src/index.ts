// @verify-kit/core: verify-kit's engine on Web APIs (Request in, Response out) for any server that
// speaks the Fetch standard; @verify-kit/express, @verify-kit/next and @verify-kit/hono are its shells.

// verify-kit's one error class, @verify-kit/protocol's (the client's is the same).
export type { VerifyKitErrorCode as ErrorCode, VerifyKitErrorOptions } from '@verify-kit/protocol/errors';
export { isVerifyKitError, VerifyKitError } from '@verify-kit/protocol/errors';
export type { GateRules } from './answers/gate-rules.js';
export type { StatusOfOptions, StatusOfResult } from './answers/status-of.js';
export type { GateResult } from './fetch/gate.js';
export type { FetchWebhookVerifierInput, KitRuntime, VerifyKit, VerifyKitOptions } from './fetch/kit.js';
export { createVerifyKit } from './fetch/kit.js';
export type { RequestContext } from './fetch/kit-request.js';
export type { FetchOptions } from './fetch/options.js';
export { VISITOR_COOKIE } from './fetch/visitor.js';
export type {
  GateDecisionEvent,
  Instrumentation,
  KitEvent,
  LimitRefusalEvent,
  LongPollEndedEvent,
  LongPollWaitingEvent,
  SessionCreatedEvent,
  UpstreamRequestEvent,
  WebhookReceivedEvent,
} from './shared/instrumentation.js';
export type { CookieOptions, SetCookieOptions } from './web/cookie-header.js';
export { cookieName, readCookie, serializeClearCookie, serializeCookie } from './web/cookie-header.js';
export type { CookieSecret } from './web/sealed-cookie.js';
export {
  cookieSecrets,
  MAX_SEALED_COOKIE_BYTES,
  MIN_COOKIE_SECRET_LENGTH,
  sealCookie,
  unsealCookie,
} from './web/sealed-cookie.js';
export type { VerifiedWebhook, VerifyWebhookInput } from './web/webhooks.js';
export { verifyWebhook } from './web/webhooks.js';
export type { KitHealth } from './wiring/health.js';
