import { t } from './text/index.js';

/*
 * The pages' one way to call the demo server: JSON in and out, and every failure turned into a
 * sentence a person can act on (never a status code or a stack).
 */

export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly details: ReadonlyArray<{ path?: string; message?: string }> = [],
  ) {
    super(message);
  }
}

/** The demo server's codes a person may meet, in the page's language. */
function friendly(code: string, status: number): string | undefined {
  const text = t();
  const byCode: Record<string, string> = {
    SIGN_IN_REQUIRED: text.apiSignInRequired,
    CROSS_SITE_REQUEST: text.apiCrossSite,
    NO_SESSION: text.apiNoSession,
    NO_SIMULATOR: text.apiNoSimulator,
    NOT_IN_MANUAL_REVIEW: text.apiNotInReview,
    INTERNAL_ERROR: text.apiInternal,
  };
  if (byCode[code] !== undefined) return byCode[code];
  if (status === 502 || status === 503 || status === 504) return text.apiUnreachable;
  return undefined;
}

export async function api<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: init.method ?? 'GET',
      headers:
        init.body === undefined
          ? { accept: 'application/json' }
          : { accept: 'application/json', 'content-type': 'application/json' },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError('NETWORK', t().apiNetwork, 0);
  }
  if (response.status === 204) return undefined as T;
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  if (!response.ok) {
    const error = (body as { error?: { code?: string; message?: string; details?: [] } } | undefined)?.error;
    const code = error?.code ?? `HTTP_${response.status}`;
    const message =
      friendly(code, response.status) ?? (error?.message ? capitalise(error.message) : t().apiGeneric);
    throw new ApiError(code, message, response.status, error?.details ?? []);
  }
  return body as T;
}

export function messageOf(error: unknown): string {
  return error instanceof ApiError ? error.message : t().apiUnexpected;
}

function capitalise(text: string): string {
  const sentence = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}
