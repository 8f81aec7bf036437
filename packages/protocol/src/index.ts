// @verify-kit/protocol: the JSON between <verify-identity> and @verify-kit/express. No dependencies,
// no DOM and no Node: the widget, the kit and the client share these and nothing else.
export type {
  ErrorResponseBody,
  Locale,
  SendLinkChannel,
  SendLinkOffer,
  SessionRequestBody,
  SessionResponseBody,
  StatusResponseBody,
} from './bodies.js';
export { DEFAULT_MAX_WAIT_SECONDS, LOCALES, MAX_WAIT_SECONDS } from './bodies.js';
export type { ErrorCode } from './error-codes.js';
export { ERROR_CODE, isErrorCode } from './error-codes.js';
export type { FinalPhase, Phase } from './phases.js';
export { FINAL_PHASES, isFinalPhase, isPhase, PHASE, PHASES } from './phases.js';
export { MAX_RETRY_AFTER_MS, parseRetryAfter } from './retry-after.js';
export { sameOriginPath } from './same-origin-path.js';
