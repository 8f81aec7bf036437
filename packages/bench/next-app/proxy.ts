import { type NextRequest, NextResponse } from 'next/server';
import { kit } from './lib/verify-kit';

// One proxy for both pages of the bench (one build, one `next start`): /visit through the README's
// gate, /plain passed on as a proxy that does nothing else would (NextResponse.next()).
const gate = kit.requireApproved({ redirectTo: '/verify' });

export default function proxy(request: NextRequest): Promise<Response> | Response {
  return request.nextUrl.pathname === '/visit' ? gate(request) : NextResponse.next();
}

export const config = { matcher: ['/plain', '/visit'] };
