// A small page behind the proxy, rendered on each request (as the other bench apps' handlers).
export const dynamic = 'force-dynamic';

export function GET(): Response {
  return Response.json({ ok: true });
}
