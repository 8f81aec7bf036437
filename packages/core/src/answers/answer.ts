import { ERROR_CODE, toWire } from '../shared/errors.js';

/**
 * An answer of the protocol, whatever the server: the Express shell writes it on `res`, core's
 * Fetch handler makes it a `Response`. The routes' logic makes answers; the shells only write them.
 */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  /** JSON (sent as application/json; charset=utf-8), or text with its Content-Type in headers. */
  body?: { json: unknown } | { text: string };
}

const NO_STORE = { 'Cache-Control': 'no-store' };

export function jsonAnswer(status: number, json: unknown, headers: Record<string, string> = {}): Answer {
  return { status, headers: { ...NO_STORE, ...headers }, body: { json } };
}

/** The error's wire answer: its status (or `statusOverride`), no-store, and Retry-After when it has one. */
export function errorAnswer(error: unknown, statusOverride?: number): Answer {
  const wire = toWire(error);
  const retryAfter = (error as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
  return jsonAnswer(
    statusOverride ?? wire.status,
    wire.body,
    typeof retryAfter === 'number' ? { 'Retry-After': String(retryAfter) } : {},
  );
}

/** 405 with the methods a path answers. */
export function methodNotAllowed(allow: string): Answer {
  return jsonAnswer(
    405,
    { error: { code: ERROR_CODE.METHOD_NOT_ALLOWED, message: `use ${allow}` } },
    { Allow: allow },
  );
}
