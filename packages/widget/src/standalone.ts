// One self-contained module for a <script type="module"> tag: Lit bundled, the element registered.
export { VerifyIdentity } from './verify-identity.js';
