import type { ErrorDetail, PhaseChangeDetail } from './verify-identity.component.js';
import { VerifyIdentity } from './verify-identity.component.js';

export * from './verify-identity.component.js';

// Guarded: importing on a server (no registry) or twice (two bundles on one page) must not throw.
if (typeof customElements !== 'undefined' && !customElements.get('verify-identity')) {
  customElements.define('verify-identity', VerifyIdentity);
}

declare global {
  interface HTMLElementTagNameMap {
    'verify-identity': VerifyIdentity;
  }
  interface HTMLElementEventMap {
    'phase-change': CustomEvent<PhaseChangeDetail>;
    approved: CustomEvent<PhaseChangeDetail>;
    rejected: CustomEvent<PhaseChangeDetail>;
    expired: CustomEvent<PhaseChangeDetail>;
    'verify-identity-error': CustomEvent<ErrorDetail>;
  }
}
