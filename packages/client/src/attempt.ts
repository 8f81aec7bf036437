import type { ReadBody } from './read-body.js';

/** One request of a call, as the transport sends it (headers and body ready, the deadline in `signal`). */
export interface AttemptRequest {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body: string | undefined;
  /** Aborts on the attempt's deadline or the caller's signal. */
  signal: AbortSignal;
}

export interface AttemptAnswer {
  status: number;
  retryAfter: string | readonly string[] | undefined;
  read: ReadBody;
}

/**
 * One HTTP exchange: sends the request and reads the answer's body (capped, see read-body.ts).
 * Rejects on a network error (the transport maps it: upstream-errors.ts) or when `signal` aborts.
 * The only part of a client that knows its HTTP stack (undici-attempt.ts, fetch-attempt.ts).
 */
export type Attempt = (request: AttemptRequest) => Promise<AttemptAnswer>;
