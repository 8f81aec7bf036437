import '@verify-kit/widget'; // defines <verify-identity>; Lit is a dependency, shared with your app
import type { PhaseChangeDetail, VerifyIdentity } from '@verify-kit/widget';
