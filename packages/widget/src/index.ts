export { ar } from './strings.ar.js';
export { de } from './strings.de.js';
export { en, type VerifyIdentityStrings } from './strings.en.js';
export { tr } from './strings.tr.js';
export {
  type ErrorDetail,
  type PhaseChangeDetail,
  VerifyIdentity,
  type VerifyIdentityView,
} from './verify-identity.js';
