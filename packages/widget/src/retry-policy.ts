// When the element asks the kit again, and when it shows an error instead: one definition for the
// session's creation, for the status follower, and for anything that acts as the widget (the chaos
// run's simulated person imports it as `@verify-kit/widget/retry-policy`). Pure: no DOM, no import.

/** The longest wait before asking the kit again, in ms (Retry-After included). */
export const MAX_DELAY_MS = 60_000;

/** Failures of a status read in a row (network, 5xx, bad body) before the error shows; 429s do not count. */
export const MAX_STATUS_FAILURES = 5;

/** `ms` ±25%, so that many browsers do not ask at the same moment. */
export const jitter = (ms: number): number => ms * (0.75 + Math.random() / 2);

/** The wait after the `n`-th failure in a row (from 0): `baseMs` doubled each time, jittered, at most MAX_DELAY_MS. */
export const backoff = (baseMs: number, n: number): number => jitter(Math.min(baseMs * 2 ** n, MAX_DELAY_MS));

/** What a failed call answered: its HTTP status (0: no answer) and any Retry-After, in ms. */
export interface Failure {
  status: number;
  retryAfterMs?: number | undefined;
}

/**
 * When to ask again after `failure`: after its Retry-After, but never sooner than the backoff (a
 * Retry-After of 0 must not mean "at once, forever") and never later than MAX_DELAY_MS.
 */
export const retryDelay = (failure: Failure, backoffMs: number): number =>
  Math.min(Math.max(failure.retryAfterMs ?? 0, backoffMs), MAX_DELAY_MS);

/**
 * Creating the session (POST /session) failed on try `attempt` (from 1): the ms to wait before the
 * next try, or undefined when the error shows. Asked again: 409 (another request is creating it),
 * 429 (slow down) and 503 (a store restarting, an instance draining, the service down a moment),
 * after 1, 2, then 4 s or a Retry-After up to 5 s, four tries in all; a longer Retry-After shows at
 * once. A send of the link (`sending`) is not asked again on a 503: the link may have gone out.
 */
export function startRetryDelay(failure: Failure, attempt: number, sending?: boolean): number | undefined {
  const { status } = failure;
  const wait = retryDelay(failure, backoff(1000, attempt - 1));
  return (status === 409 || status === 429 || (status === 503 && !sending)) && wait <= 5000 && attempt < 4
    ? wait
    : undefined;
}
