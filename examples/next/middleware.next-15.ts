// middleware.ts (Next 15.5: the same gate on the Node runtime, stable since 15.5)
import { kit } from './lib/verify-kit';
export default kit.requireApproved({ redirectTo: '/verify' });
export const config = { matcher: ['/account/:path*'], runtime: 'nodejs' };
