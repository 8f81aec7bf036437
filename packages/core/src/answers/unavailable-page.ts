import type { Answer } from './answer.js';

// What a person navigating to a gated page sees when the service cannot be asked (the gate's 503):
// plain semantic HTML with no script or style, so any CSP allows it. `onUnavailable` replaces it.
const PAGE = (code: string) => `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Identity check unavailable</title></head>
<body>
<main>
<h1>We cannot check your identity verification right now</h1>
<p>This page opens only once the identity verification service confirms your verification, and it
cannot be reached at the moment. Nothing is wrong with your account.</p>
<p>Please try again in a few minutes.</p>
<p><small>Error code: ${code}</small></p>
</main>
</body>
</html>
`;

/** `code` is one of the kit's own SNAKE_CASE codes, never text from the service. */
export function unavailablePage(code: string): Answer {
  return {
    status: 503,
    headers: {
      'Cache-Control': 'no-store',
      'Content-Type': 'text/html; charset=utf-8',
      'Retry-After': '30',
    },
    body: { text: PAGE(code.replace(/[^A-Z0-9_]/g, '')) },
  };
}
