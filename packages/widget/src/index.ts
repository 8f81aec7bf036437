export { emit } from './emit.js';
export { parseRetryAfter, RequestError } from './request.js';
export {
  FollowerStatus,
  LONG_POLL_SECONDS,
  StatusFollower,
  type StatusFollowerOptions,
} from './status-follower.js';
export { en, type VerifyIdentityStrings } from './strings.en.js';
export { tr } from './strings.tr.js';
export {
  type ErrorDetail,
  formatTimeLeft,
  type PhaseChangeDetail,
  VerifyIdentity,
  type VerifyIdentityView,
} from './verify-identity.js';
