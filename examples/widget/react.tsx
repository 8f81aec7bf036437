import { VerifyIdentity } from '@verify-kit/widget/react';

export function Verify() {
  return (
    <VerifyIdentity
      endpoint="/identity"
      locale="tr"
      strings={{ start: 'Kimliğimi doğrula' }}
      onApproved={() => window.location.assign('/account')}
      onPhaseChange={(e) => console.log(e.detail.phase)}
      onError={(e) => console.warn(e.detail.code)}
    >
      <a slot="done" href="/account">
        Devam et
      </a>
    </VerifyIdentity>
  );
}
