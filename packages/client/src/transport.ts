import { parseRetryAfter } from '@verify-kit/protocol';
import type { z } from 'zod';
import type { Attempt, AttemptAnswer } from './attempt.js';
import type { ResolvedClientOptions } from './client-options.js';
import { VerifyKitError } from './errors.js';
import { issueDetails } from './parse-options.js';
import type { ReadBody } from './read-body.js';
import { redact } from './redact.js';
import { backoffDelay, sleep } from './retry.js';
import { type AttemptLabel, attemptRecorder } from './upstream-attempt.js';
import {
  errorBody,
  type Failure,
  failureForNetworkError,
  failureForStatus,
  wasNeverSent,
} from './upstream-errors.js';

/**
 * Which failures a call may retry:
 * - `safe`: no side effect upstream (GET, and verify, which only compares a value), so connection
 *   errors, timeouts, 429, 502, 503 and 504 are retried.
 * - `once`: session creation. Retried only when the request provably never left (connection refused,
 *   connect timeout, DNS failure); anything else could have created a session already.
 */
export type RetryPolicy = 'safe' | 'once';

export interface Call<T> {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  response: z.ZodType<T>;
  /** The spec's exact shape: an answer that passes `response` but not this is logged once. */
  expected?: z.ZodType;
  policy: RetryPolicy;
  signal: AbortSignal | undefined;
  /** What `onAttempt` is told of this call's attempts (no id: the path's template). */
  label: AttemptLabel;
}

type AttemptResult =
  | ({ kind: 'answer' } & AttemptAnswer)
  | { kind: 'failure'; error: unknown; failure: Failure };

const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);
/** A `Retry-After` longer than max(this, retryMaxMs) gives up at once instead of holding the caller. */
const MIN_RETRY_AFTER_CAP_MS = 10_000;

/**
 * Sends calls to the service: one deadline per attempt, retries by policy, answers checked by schema.
 * The HTTP exchange itself is `sendAttempt` (undici or fetch); nothing here depends on either.
 */
export class Transport {
  private readonly warned = new Set<string>();
  private readonly retryAfterCapMs: number;
  private readonly record: ReturnType<typeof attemptRecorder> | undefined;

  constructor(
    private readonly config: ResolvedClientOptions,
    private readonly sendAttempt: Attempt,
  ) {
    this.retryAfterCapMs = Math.max(MIN_RETRY_AFTER_CAP_MS, config.retryMaxMs);
    this.record = config.onAttempt && attemptRecorder(config.baseUrl, config.onAttempt);
  }

  /** The failure as the caller sees it: a VerifyKitError with the API key redacted everywhere. */
  fail(failure: Failure): VerifyKitError {
    const { code, message, ...rest } = failure;
    const { apiKey } = this.config;
    return new VerifyKitError(code, redact(message, apiKey), {
      ...rest,
      body: redact(rest.body, apiKey),
      details: redact(rest.details, apiKey),
    });
  }

  async send<T>(call: Call<T>): Promise<T> {
    call.signal?.throwIfAborted();
    const what = `${call.method} ${call.path}`;
    for (let attemptIndex = 0; ; attemptIndex++) {
      const told = this.record?.(call.label, call.method, attemptIndex);
      const result = await this.attempt(call as Call<unknown>, what);
      let retryable: boolean;
      let failure: Failure;
      let retryAfterMs: number | undefined;
      if (result.kind === 'answer') {
        if (result.status >= 200 && result.status <= 299) {
          if (told === undefined) return this.parseAnswer(call, result.read, result.status, what);
          try {
            const answer = this.parseAnswer(call, result.read, result.status, what);
            told(result.status, undefined);
            return answer;
          } catch (error) {
            told(result.status, (error as VerifyKitError).code);
            throw error;
          }
        }
        failure = failureForStatus(result.status, what, result.read);
        retryable = call.policy === 'safe' && RETRYABLE_STATUSES.has(result.status);
        retryAfterMs = parseRetryAfter(result.retryAfter);
      } else {
        failure = result.failure;
        retryable = call.policy === 'safe' || wasNeverSent(result.error);
      }
      told?.(result.kind === 'answer' ? result.status : undefined, failure.code);
      if (retryAfterMs !== undefined) failure.retryAfterMs = retryAfterMs;
      if (!retryable || attemptIndex >= this.config.retries) throw this.fail(failure);
      if (retryAfterMs !== undefined && retryAfterMs > this.retryAfterCapMs) {
        throw this.fail({
          ...failure,
          message: `${failure.message}; Retry-After exceeds ${this.retryAfterCapMs} ms`,
        });
      }
      await sleep(
        retryAfterMs ?? backoffDelay(attemptIndex, this.config.retryBaseMs, this.config.retryMaxMs),
        call.signal,
      );
    }
  }

  private async attempt(call: Call<unknown>, what: string): Promise<AttemptResult> {
    const { config } = this;
    // One deadline for the whole attempt (connect, headers, body), besides the HTTP stack's own timeouts.
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new Error('attempt deadline')), config.timeoutMs);
    const forwardAbort = () => deadline.abort(call.signal?.reason);
    call.signal?.addEventListener('abort', forwardAbort, { once: true });
    try {
      const answer = await this.sendAttempt({
        url: config.baseUrl + call.path,
        method: call.method,
        headers: {
          'x-api-key': config.apiKey,
          accept: 'application/json',
          ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        signal: deadline.signal,
      });
      return { kind: 'answer', ...answer };
    } catch (error) {
      if (call.signal?.aborted) throw call.signal.reason;
      const timedOut = deadline.signal.aborted;
      return { kind: 'failure', error, failure: failureForNetworkError(error, what, timedOut) };
    } finally {
      clearTimeout(timer);
      call.signal?.removeEventListener('abort', forwardAbort);
    }
  }

  private parseAnswer<T>(call: Call<T>, read: ReadBody, status: number, what: string): T {
    const badResponse = (message: string, body: unknown, details?: unknown[]) =>
      this.fail({
        code: 'UPSTREAM_BAD_RESPONSE',
        message: `${what}: ${message}`,
        status,
        body,
        ...(details === undefined ? {} : { details }),
      });
    if (read.truncated) throw badResponse('response body too large', errorBody(read));
    let json: unknown;
    try {
      json = JSON.parse(read.text);
    } catch {
      throw badResponse('response is not JSON', errorBody(read));
    }
    const parsed = call.response.safeParse(json);
    if (!parsed.success) {
      throw badResponse('response does not match the v1 format', json, issueDetails(parsed.error.issues));
    }
    this.warnOnDrift(call as Call<unknown>, json, what);
    return parsed.data;
  }

  /** A shape the spec does not describe, accepted: said once per call kind, never failed. */
  private warnOnDrift(call: Call<unknown>, json: unknown, what: string): void {
    if (call.expected === undefined || this.warned.has(what)) return;
    const strict = call.expected.safeParse(json);
    if (strict.success) return;
    this.warned.add(what);
    const fields = [...new Set(strict.error.issues.map((issue) => issue.path.map(String).join('.')))];
    this.config.logger?.warn?.(`${what}: the service answered a shape the spec does not describe; accepted`, {
      fields,
    });
  }
}
