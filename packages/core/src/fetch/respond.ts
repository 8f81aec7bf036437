import type { Answer } from '../answers/answer.js';

/**
 * The answer as a `Response`: JSON as application/json; charset=utf-8, nothing for HEAD. `extra`
 * headers (a Set-Cookie) are appended.
 */
export function toResponse(answer: Answer, method: string, extra: readonly string[] = []): Response {
  const headers = new Headers(answer.headers);
  for (const cookie of extra) headers.append('Set-Cookie', cookie);
  const { body } = answer;
  let text: string | null = null;
  if (body !== undefined && 'json' in body) {
    headers.set('Content-Type', 'application/json; charset=utf-8');
    text = JSON.stringify(body.json);
  } else if (body !== undefined) text = body.text;
  return new Response(method === 'HEAD' ? null : text, { status: answer.status, headers });
}
