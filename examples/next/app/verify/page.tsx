'use client';

import { VerifyIdentity } from '@verify-kit/widget/react';

/** Back where the gate sent the person from: a path of this site only, else /account. */
function returnTo(): string {
  const path = new URLSearchParams(window.location.search).get('returnTo');
  return path?.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\') ? path : '/account';
}

export default function VerifyPage() {
  return (
    <main>
      <h1>Verify your identity</h1>
      <VerifyIdentity endpoint="/identity" onApproved={() => window.location.assign(returnTo())}>
        <a slot="done" href="/account">
          Continue to your account
        </a>
      </VerifyIdentity>
    </main>
  );
}
