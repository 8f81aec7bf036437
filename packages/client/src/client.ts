import { parseRetryAfter } from '@verify-kit/protocol';
import { type Dispatcher, Pool, request } from 'undici';
import type { z } from 'zod';
import { type ClientOptions, resolveClientOptions } from './client-options.js';
import { VerifyKitError } from './errors.js';
import { type ReadBody, readBody } from './read-body.js';
import { redact } from './redact.js';
import { backoffDelay, sleep } from './retry.js';
import {
  type CreateSessionRequest,
  CreateSessionRequestSchema,
  type CreateSessionResponse,
  CreateSessionResponseSchema,
  type Identification,
  IdentificationSchema,
  StrictCreateSessionResponseSchema,
  type VerifyRequest,
  VerifyRequestSchema,
  type VerifyResponse,
  VerifyResponseSchema,
} from './schemas.js';
import {
  errorBody,
  type Failure,
  failureForNetworkError,
  failureForStatus,
  wasNeverSent,
} from './upstream-errors.js';

export type { ClientOptions } from './client-options.js';

export interface RequestOptions {
  signal?: AbortSignal;
}

export interface VerifyClient {
  readonly baseUrl: string;
  createSession(body: CreateSessionRequest, options?: RequestOptions): Promise<CreateSessionResponse>;
  getIdentification(identificationId: string, options?: RequestOptions): Promise<Identification>;
  verify(identificationId: string, body: VerifyRequest, options?: RequestOptions): Promise<VerifyResponse>;
  /** {baseUrl}/api/v1/verification-sessions/<id>/qr-code */
  qrCodeUrl(verificationSessionId: string): string;
  /** Closes the client's own pool (not a dispatcher passed in). */
  close(): Promise<void>;
}

/**
 * Which failures a call may retry:
 * - `safe`: no side effect upstream (GET, and verify, which only compares a value), so connection
 *   errors, timeouts, 429, 502, 503 and 504 are retried.
 * - `once`: session creation. Retried only when the request provably never left (connection refused,
 *   connect timeout, DNS failure); anything else could have created a session already.
 */
type RetryPolicy = 'safe' | 'once';

interface Call<T> {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  response: z.ZodType<T>;
  /** The spec's exact shape: an answer that passes `response` but not this is logged once. */
  expected?: z.ZodType;
  policy: RetryPolicy;
  signal: AbortSignal | undefined;
}

const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);
/** A `Retry-After` longer than max(this, retryMaxMs) gives up at once instead of holding the caller. */
const MIN_RETRY_AFTER_CAP_MS = 10_000;
const MAX_ID_LENGTH = 256;

export function createClient(options: ClientOptions): VerifyClient {
  const config = resolveClientOptions(options);
  const ownPool =
    config.dispatcher === undefined
      ? new Pool(config.origin, {
          connect: { timeout: config.timeoutMs },
          headersTimeout: config.timeoutMs,
          bodyTimeout: config.timeoutMs,
        })
      : undefined;
  const dispatcher: Dispatcher = config.dispatcher ?? ownPool!;
  let closing: Promise<void> | undefined;
  const retryAfterCapMs = Math.max(MIN_RETRY_AFTER_CAP_MS, config.retryMaxMs);
  const warned = new Set<string>();

  /** A shape the spec does not describe, accepted: said once per call kind, never failed. */
  const warnOnDrift = (call: Call<unknown>, json: unknown, what: string) => {
    if (call.expected === undefined || warned.has(what)) return;
    const strict = call.expected.safeParse(json);
    if (strict.success) return;
    warned.add(what);
    const fields = [...new Set(strict.error.issues.map((issue) => issue.path.map(String).join('.')))];
    config.logger?.warn?.(`${what}: the service answered a shape the spec does not describe; accepted`, {
      fields,
    });
  };

  const fail = (failure: Failure): VerifyKitError => {
    const { code, message, ...rest } = failure;
    return new VerifyKitError(code, redact(message, config.apiKey), {
      ...rest,
      body: redact(rest.body, config.apiKey),
      details: redact(rest.details, config.apiKey),
    });
  };

  async function attempt(call: Call<unknown>, what: string): Promise<AttemptResult> {
    // One deadline for the whole attempt (connect, headers, body), besides undici's own timeouts.
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new Error('attempt deadline')), config.timeoutMs);
    const forwardAbort = () => deadline.abort(call.signal?.reason);
    call.signal?.addEventListener('abort', forwardAbort, { once: true });
    try {
      const response = await request(config.baseUrl + call.path, {
        dispatcher,
        method: call.method,
        headers: {
          'x-api-key': config.apiKey,
          accept: 'application/json',
          ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        signal: deadline.signal,
        headersTimeout: config.timeoutMs,
        bodyTimeout: config.timeoutMs,
      });
      const read = await readBody(response.body);
      return { kind: 'answer', status: response.statusCode, headers: response.headers, read };
    } catch (error) {
      if (call.signal?.aborted) throw call.signal.reason;
      const timedOut = deadline.signal.aborted;
      return { kind: 'failure', error, failure: failureForNetworkError(error, what, timedOut) };
    } finally {
      clearTimeout(timer);
      call.signal?.removeEventListener('abort', forwardAbort);
    }
  }

  async function send<T>(call: Call<T>): Promise<T> {
    call.signal?.throwIfAborted();
    const what = `${call.method} ${call.path}`;
    for (let attemptIndex = 0; ; attemptIndex++) {
      const result = await attempt(call as Call<unknown>, what);
      let retryable: boolean;
      let failure: Failure;
      let retryAfterMs: number | undefined;
      if (result.kind === 'answer') {
        if (result.status >= 200 && result.status <= 299)
          return parseAnswer(call, result.read, result.status, what);
        failure = failureForStatus(result.status, what, result.read);
        retryable = call.policy === 'safe' && RETRYABLE_STATUSES.has(result.status);
        retryAfterMs = parseRetryAfter(result.headers['retry-after']);
      } else {
        failure = result.failure;
        retryable = call.policy === 'safe' || wasNeverSent(result.error);
      }
      if (!retryable || attemptIndex >= config.retries) throw fail(failure);
      if (retryAfterMs !== undefined && retryAfterMs > retryAfterCapMs) {
        throw fail({ ...failure, message: `${failure.message}; Retry-After exceeds ${retryAfterCapMs} ms` });
      }
      await sleep(
        retryAfterMs ?? backoffDelay(attemptIndex, config.retryBaseMs, config.retryMaxMs),
        call.signal,
      );
    }
  }

  function parseAnswer<T>(call: Call<T>, read: ReadBody, status: number, what: string): T {
    const schema = call.response;
    if (read.truncated) {
      throw fail({
        code: 'UPSTREAM_BAD_RESPONSE',
        message: `${what}: response body too large`,
        status,
        body: errorBody(read),
      });
    }
    let json: unknown;
    try {
      json = JSON.parse(read.text);
    } catch {
      throw fail({
        code: 'UPSTREAM_BAD_RESPONSE',
        message: `${what}: response is not JSON`,
        status,
        body: errorBody(read),
      });
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      throw fail({
        code: 'UPSTREAM_BAD_RESPONSE',
        message: `${what}: response does not match the v1 format`,
        status,
        body: json,
        details: issuesToDetails(parsed.error.issues),
      });
    }
    warnOnDrift(call as Call<unknown>, json, what);
    return parsed.data;
  }

  function validBody<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      const details = issuesToDetails(parsed.error.issues);
      const summary = details.map((d) => (d.path === '' ? d.message : `${d.path}: ${d.message}`)).join('; ');
      throw fail({ code: 'INVALID_REQUEST', message: `invalid ${what}: ${summary}`, details });
    }
    return parsed.data;
  }

  function idSegment(id: unknown, name: string): string {
    if (typeof id !== 'string' || id === '' || id === '.' || id === '..' || id.length > MAX_ID_LENGTH) {
      throw fail({
        code: 'INVALID_REQUEST',
        message: `${name} must be a non-empty string of at most ${MAX_ID_LENGTH} characters`,
        details: [{ path: name, message: 'invalid id' }],
      });
    }
    return encodeURIComponent(id);
  }

  return {
    baseUrl: config.baseUrl,

    createSession(body, requestOptions) {
      return run(() =>
        send({
          method: 'POST',
          path: '/api/v1/verification-sessions',
          body: validBody(CreateSessionRequestSchema, body, 'session request'),
          response: config.strict ? StrictCreateSessionResponseSchema : CreateSessionResponseSchema,
          expected: StrictCreateSessionResponseSchema,
          policy: 'once',
          signal: requestOptions?.signal,
        }),
      );
    },

    getIdentification(identificationId, requestOptions) {
      return run(() =>
        send({
          method: 'GET',
          path: `/api/v1/identifications/${idSegment(identificationId, 'identificationId')}`,
          response: IdentificationSchema,
          policy: 'safe',
          signal: requestOptions?.signal,
        }),
      );
    },

    verify(identificationId, body, requestOptions) {
      return run(() =>
        send({
          method: 'POST',
          path: `/api/v1/identifications/${idSegment(identificationId, 'identificationId')}/verify`,
          body: validBody(VerifyRequestSchema, body, 'verify request'),
          response: VerifyResponseSchema,
          policy: 'safe',
          signal: requestOptions?.signal,
        }),
      );
    },

    qrCodeUrl(verificationSessionId) {
      return `${config.baseUrl}/api/v1/verification-sessions/${idSegment(verificationSessionId, 'verificationSessionId')}/qr-code`;
    },

    close() {
      closing ??= ownPool?.close() ?? Promise.resolve();
      return closing;
    },
  };
}

type AttemptResult =
  | { kind: 'answer'; status: number; headers: Record<string, string | string[] | undefined>; read: ReadBody }
  | { kind: 'failure'; error: unknown; failure: Failure };

/** Turns synchronous validation throws into rejections: every method fails by rejecting. */
async function run<T>(call: () => Promise<T>): Promise<T> {
  return call();
}

function issuesToDetails(issues: readonly z.core.$ZodIssue[]): { path: string; message: string }[] {
  return issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
}
