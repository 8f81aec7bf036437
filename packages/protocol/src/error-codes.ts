/**
 * Every error code of verify-kit, in one place: what the kit answers on the wire, what the client
 * throws, what a factory throws. Catch by code, never by message.
 */
export const ERROR_CODE = {
  // The upstream service.
  /** The service refused the API key (401/403). */
  UPSTREAM_UNAUTHORIZED: 'UPSTREAM_UNAUTHORIZED',
  /** The service does not know the session or identification (404/410). */
  UPSTREAM_NOT_FOUND: 'UPSTREAM_NOT_FOUND',
  /** The service refused the request as invalid (400/422). */
  UPSTREAM_BAD_REQUEST: 'UPSTREAM_BAD_REQUEST',
  /** The service did not answer in time. */
  UPSTREAM_TIMEOUT: 'UPSTREAM_TIMEOUT',
  /** The service could not be reached, or answered 5xx. */
  UPSTREAM_UNAVAILABLE: 'UPSTREAM_UNAVAILABLE',
  /** The service asked to slow down (429) and the retries were used up. */
  UPSTREAM_RATE_LIMITED: 'UPSTREAM_RATE_LIMITED',
  /** The service answered something unusable (not JSON, a missing field, a dangerous link). */
  UPSTREAM_BAD_RESPONSE: 'UPSTREAM_BAD_RESPONSE',
  /** The gate met a status it does not know: not a pass, and not a refusal either (503). */
  UPSTREAM_UNKNOWN_STATUS: 'UPSTREAM_UNKNOWN_STATUS',

  // Programming errors, thrown (never on the wire).
  /** A request body failed validation before it was sent. */
  INVALID_REQUEST: 'INVALID_REQUEST',
  /** Options given to a factory are wrong. */
  INVALID_OPTIONS: 'INVALID_OPTIONS',

  // Webhooks.
  /** Webhook headers missing or malformed. */
  WEBHOOK_HEADERS_MISSING: 'WEBHOOK_HEADERS_MISSING',
  /** No configured secret signed this body. */
  WEBHOOK_SIGNATURE_INVALID: 'WEBHOOK_SIGNATURE_INVALID',
  /** The webhook's timestamp is outside the tolerance. */
  WEBHOOK_TIMESTAMP_STALE: 'WEBHOOK_TIMESTAMP_STALE',
  /** A webhook arrived while no webhookSecret or webhookVerifier is configured. */
  WEBHOOK_NOT_CONFIGURED: 'WEBHOOK_NOT_CONFIGURED',
  /** A body parser of the app consumed the webhook body before the kit. */
  WEBHOOK_BODY_ALREADY_PARSED: 'WEBHOOK_BODY_ALREADY_PARSED',

  // The integrator's setup.
  /** req.session is undefined: express-session is not mounted before the kit. */
  SESSION_MIDDLEWARE_MISSING: 'SESSION_MIDDLEWARE_MISSING',
  /** The session store failed to regenerate or save the session. */
  SESSION_STORE_ERROR: 'SESSION_STORE_ERROR',
  /** The binding store (accounts) failed or did not answer: the gate fails closed. */
  BINDING_STORE_UNAVAILABLE: 'BINDING_STORE_UNAVAILABLE',
  /**
   * The SQL store's tables are missing or at another schema version than this verify-kit's (found
   * before any query of a request): run `migrate(driver)` from @verify-kit/core/sql, or upgrade.
   */
  STORE_SCHEMA_MISMATCH: 'STORE_SCHEMA_MISMATCH',
  /** accountOf(req) threw or returned something that is not an account id. */
  ACCOUNT_RESOLUTION_FAILED: 'ACCOUNT_RESOLUTION_FAILED',
  /** The integrator's sessionOptions(req) threw. */
  SESSION_OPTIONS_FAILED: 'SESSION_OPTIONS_FAILED',
  /** The integrator's sessionOptions(req) returned a body the service would refuse. */
  SESSION_OPTIONS_INVALID: 'SESSION_OPTIONS_INVALID',

  // Requests from browsers.
  /** POST from another site (Fetch Metadata or Origin). */
  CROSS_SITE_REQUEST: 'CROSS_SITE_REQUEST',
  /** POST /session without Content-Type: application/json. */
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  /** The body is not JSON. */
  INVALID_JSON: 'INVALID_JSON',
  /** The body is JSON of the wrong shape. */
  INVALID_BODY: 'INVALID_BODY',
  /** The body is larger than the route accepts (the connection is closed). */
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  /** Bad `wait` or `since` on GET /status. */
  INVALID_QUERY: 'INVALID_QUERY',
  /** No verification is bound to this account or browser session (or its proof is missing). */
  NO_VERIFICATION_SESSION: 'NO_VERIFICATION_SESSION',
  /** The gate refused: the identification is not APPROVED. */
  NOT_APPROVED: 'NOT_APPROVED',
  /** Another request of this browser session is creating the verification: ask again shortly. */
  SESSION_CREATION_IN_PROGRESS: 'SESSION_CREATION_IN_PROGRESS',
  /**
   * Express: the browser session ended (the person signed out in another tab) while its verification
   * was being created. Nothing was kept: ask again, as the browser now is.
   */
  SESSION_ENDED: 'SESSION_ENDED',
  /** Too many new sessions from this browser, account or address: wait for Retry-After. */
  TOO_MANY_SESSIONS: 'TOO_MANY_SESSIONS',
  /** Too many long-polls open for this verification or this server: wait for Retry-After. */
  TOO_MANY_LONG_POLLS: 'TOO_MANY_LONG_POLLS',
  /** This browser or address asked for more status reads than its share of the service's: wait for Retry-After. */
  TOO_MANY_STATUS_READS: 'TOO_MANY_STATUS_READS',
  /** `sendTo` names a channel the kit is not configured to use. */
  SEND_LINK_NOT_ALLOWED: 'SEND_LINK_NOT_ALLOWED',
  /** The app vouches for no contact of this person on that channel (or an anonymous visitor, not opted in). */
  SEND_LINK_NO_CONTACT: 'SEND_LINK_NO_CONTACT',
  /** The person's phone number is outside the kit's `smsCountries`. */
  SEND_LINK_COUNTRY_NOT_ALLOWED: 'SEND_LINK_COUNTRY_NOT_ALLOWED',
  /** Too many links sent to this contact, or the deployment's hourly budget is spent: wait for Retry-After. */
  TOO_MANY_SENDS: 'TOO_MANY_SENDS',
  /** The integrator's `sendLink.contactOf` returned a contact the service would refuse. */
  SEND_LINK_CONTACT_INVALID: 'SEND_LINK_CONTACT_INVALID',
  /** The integrator's `sendLink.contactOf` or `beforeSend` threw something other than a 4xx VerifyKitError. */
  SEND_LINK_HOOK_FAILED: 'SEND_LINK_HOOK_FAILED',
  /** A method the route does not serve. */
  METHOD_NOT_ALLOWED: 'METHOD_NOT_ALLOWED',
  /** A path under the kit's basePath that is none of its routes (the Fetch handler). */
  ROUTE_NOT_FOUND: 'ROUTE_NOT_FOUND',
  /** kit.close() was called. */
  KIT_CLOSED: 'KIT_CLOSED',
  /**
   * Accounts (`accountOf`) on a platform that runs many instances with only a per-process store: an
   * account's verification must follow it to every instance. Pass `store` (Redis, your database).
   */
  STORE_REQUIRED: 'STORE_REQUIRED',
  /**
   * The kit had to set the visitor's cookie where the server lets no cookie be set (a Next.js Server
   * Component rendering): call it from a Server Action or a route handler.
   */
  COOKIE_NOT_WRITABLE: 'COOKIE_NOT_WRITABLE',
  /** A bug of the kit; the detail is in the server log. */
  INTERNAL_ERROR: 'INTERNAL_ERROR',
} as const;

export type ErrorCode = (typeof ERROR_CODE)[keyof typeof ERROR_CODE];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CODE, value);
}
