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

/**
 * This browser's own random id, kept in localStorage, where no other site and no cookie can plant
 * one: the kit resumes an anonymous verification only for the browser that started it. None where
 * storage or crypto.randomUUID is unavailable (the kit then resumes as before).
 */
export function holder(): string | undefined {
  try {
    // biome-ignore lint/suspicious/noAssignInExpressions: one read, one write at most
    return (localStorage.vkHolder ??= crypto.randomUUID());
  } catch {}
}
