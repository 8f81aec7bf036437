import { type Dispatcher, request } from 'undici';
import type { Attempt } from './attempt.js';
import { readBody } from './read-body.js';

/** An attempt over undici's `request` on `dispatcher`, with undici's own header and body timeouts. */
export function undiciAttempt(dispatcher: Dispatcher, timeoutMs: number): Attempt {
  return async ({ url, method, headers, body, signal }) => {
    const response = await request(url, {
      dispatcher,
      method,
      headers,
      body,
      signal,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const read = await readBody(response.body);
    return { status: response.statusCode, retryAfter: response.headers['retry-after'], read };
  };
}
