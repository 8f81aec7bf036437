// English is built in; every other language is its own entry (`@verify-kit/widget/locales/<locale>`),
// loaded by the element the first time it speaks it, so a bundle carries only the languages spoken.
export { en, type VerifyIdentityStrings } from './strings.en.js';
export {
  type ErrorDetail,
  type PhaseChangeDetail,
  VerifyIdentity,
  type VerifyIdentityView,
} from './verify-identity.js';
