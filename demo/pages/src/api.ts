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

const FRIENDLY: Record<string, string> = {
  SIGN_IN_REQUIRED: 'Your sign-in has ended. Please sign in again.',
  CROSS_SITE_REQUEST:
    'The browser sent this from another site, so the demo refused it. Reload the page and try again.',
  NO_SESSION: 'No verification has been started yet.',
  NO_SIMULATOR: 'This demo talks to a real service: open the session with the mobile app on your phone.',
  INTERNAL_ERROR: 'Something went wrong on the demo server. Please try again in a moment.',
};

function friendlyUpstream(status: number): string | undefined {
  if (status === 502 || status === 503 || status === 504) {
    return 'The identity verification service cannot be reached right now. Please try again in a moment.';
  }
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
    throw new ApiError(
      'NETWORK',
      'The demo server cannot be reached. Is it still running? Check your connection and reload.',
      0,
    );
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
      FRIENDLY[code] ??
      friendlyUpstream(response.status) ??
      (error?.message ? capitalise(error.message) : 'Something went wrong. Please try again.');
    throw new ApiError(code, message, response.status, error?.details ?? []);
  }
  return body as T;
}

export function messageOf(error: unknown): string {
  return error instanceof ApiError
    ? error.message
    : 'Something unexpected went wrong. Please reload the page.';
}

function capitalise(text: string): string {
  const sentence = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}
