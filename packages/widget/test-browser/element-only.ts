// An integrator's page that uses only the element, bundled by the integrator's own Vite with its
// defaults: its main chunk must carry English only (budget.spec.ts, and `pnpm bench`'s
// widget.bundled.mainGzipBytes).
import { VerifyIdentity } from '@verify-kit/widget';

document.body.append(new VerifyIdentity());
