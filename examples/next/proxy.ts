// proxy.ts (Next 16; on 15.5 the same two lines in middleware.ts with the Node runtime)
import { kit } from './lib/verify-kit';
export default kit.requireApproved({ redirectTo: '/verify' });
export const config = { matcher: ['/account/:path*'] };
