import '@verify-kit/widget'; // defines <verify-identity>; Lit is a dependency, shared with your app
import type { ErrorDetail, PhaseChangeDetail } from '@verify-kit/widget';

const el = document.querySelector('verify-identity');
el?.addEventListener('phase-change', (e: CustomEvent<PhaseChangeDetail>) => console.log(e.detail.phase));
el?.addEventListener('approved', () => location.assign('/account'));
export function describe(detail: ErrorDetail): string {
  return `${detail.code}: ${detail.message}`;
}
