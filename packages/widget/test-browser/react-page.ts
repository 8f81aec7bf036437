// The page of frameworks.spec.ts's React test: <VerifyIdentity autoStart> of @verify-kit/widget/react
// (the built one), which sets the element's properties only once React has attached it.
import { VerifyIdentity } from '@verify-kit/widget/react';
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';

const main = document.querySelector('main');
if (main) {
  createRoot(main).render(
    createElement(VerifyIdentity, { endpoint: '/identity', pollInterval: 50, autoStart: true }),
  );
}
