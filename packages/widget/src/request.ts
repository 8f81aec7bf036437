import { parseRetryAfter } from '@verify-kit/protocol';

/** A failed call to the kit: a stable `code`, the HTTP status (0: no answer) and any Retry-After. */
export class RequestError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    readonly retryAfterMs?: number,
  ) {
    super(code);
  }
}

/** The longest wait before asking the kit again, in ms (Retry-After included). */
export const MAX_DELAY_MS = 60_000;

/** `ms` ±25%, so that many browsers do not ask at the same moment. */
export const jitter = (ms: number) => ms * (0.75 + Math.random() / 2);

/**
 * When to ask again after `error`: never sooner than the backoff (a Retry-After of 0 must not mean
 * "at once, forever"), never later than MAX_DELAY_MS.
 */
export function retryDelay(error: RequestError, backoffMs: number): number {
  return Math.min(Math.max(error.retryAfterMs ?? 0, backoffMs), MAX_DELAY_MS);
}

/**
 * One JSON call to the kit, same-origin credentials. Throws `RequestError`: NETWORK_ERROR (no
 * answer), the kit's error code (or HTTP_<status>) for non-2xx, BAD_RESPONSE for a 2xx without a
 * `phase`. An abort is rethrown as is. The upstream body is never surfaced: only its `code`.
 */
export async function requestJson<T extends { phase: string }>(
  url: string,
  init: RequestInit = {},
): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, { credentials: 'same-origin', cache: 'no-store', ...init });
  } catch (error) {
    if (init.signal?.aborted) throw error;
    throw new RequestError('NETWORK_ERROR', 0);
  }
  const body = await res.json().catch(() => undefined);
  if (!res.ok) {
    const code = body?.error?.code;
    throw new RequestError(
      typeof code === 'string' ? code : `HTTP_${res.status}`,
      res.status,
      parseRetryAfter(res.headers.get('retry-after')),
    );
  }
  if (typeof body?.phase !== 'string') throw new RequestError('BAD_RESPONSE', res.status);
  return body as T;
}
