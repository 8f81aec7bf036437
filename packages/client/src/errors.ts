import { ERROR_CODE } from '@verify-kit/protocol';

/**
 * One error class for verify-kit, every error with a stable string `code` to catch by: the class and
 * `isVerifyKitError` are @verify-kit/protocol's (one copy for the client and core), re-exported here.
 * Messages never carry the API key.
 */
export type { VerifyKitErrorOptions } from '@verify-kit/protocol/errors';
export { isVerifyKitError, VerifyKitError } from '@verify-kit/protocol/errors';

const CLIENT_CODES = [
  'UPSTREAM_UNAUTHORIZED',
  'UPSTREAM_NOT_FOUND',
  'UPSTREAM_BAD_REQUEST',
  'UPSTREAM_TIMEOUT',
  'UPSTREAM_UNAVAILABLE',
  'UPSTREAM_RATE_LIMITED',
  'UPSTREAM_BAD_RESPONSE',
  'INVALID_REQUEST',
  'INVALID_OPTIONS',
  'WEBHOOK_HEADERS_MISSING',
  'WEBHOOK_SIGNATURE_INVALID',
  'WEBHOOK_TIMESTAMP_STALE',
] as const satisfies readonly (keyof typeof ERROR_CODE)[];

/** The codes the client itself throws (documented once, in @verify-kit/protocol's ERROR_CODE). */
export const ERROR_CODES = Object.freeze(
  Object.fromEntries(CLIENT_CODES.map((code) => [code, ERROR_CODE[code]])),
) as { readonly [K in (typeof CLIENT_CODES)[number]]: (typeof ERROR_CODE)[K] };

export type KnownErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];
/** Packages built on the client add their own codes (e.g. the express kit's). */
export type ErrorCode = KnownErrorCode | (string & {});
