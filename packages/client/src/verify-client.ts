import type { z } from 'zod';
import type { Attempt } from './attempt.js';
import type { ResolvedClientOptions } from './client-options.js';
import { issueDetails } from './parse-options.js';
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
import { type Call, Transport } from './transport.js';
import type { Failure } from './upstream-errors.js';

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
  /**
   * createClient: closes the client's own pool, letting the requests under way finish (a dispatcher
   * passed in is left open). createFetchClient: refuses new calls and resolves once the calls under
   * way have finished. Idempotent.
   */
  close(): Promise<void>;
}

const MAX_ID_LENGTH = 256;

/**
 * The VerifyClient of both entries over one `attempt` (undici or fetch): validation, paths,
 * retries and answers are the same whatever the HTTP stack. `close` runs once.
 */
export function createVerifyClient(
  config: ResolvedClientOptions,
  attempt: Attempt,
  close: () => Promise<void>,
): VerifyClient {
  let closing: Promise<void> | undefined;
  const transport = new Transport(config, attempt);
  const send = <T>(call: Call<T>) => transport.send(call);
  const fail = (failure: Failure) => transport.fail(failure);
  const validBody = <T>(schema: z.ZodType<T>, body: unknown, what: string) =>
    validRequestBody(schema, body, what, fail);
  const idSegment = (id: unknown, name: string) => pathSegment(id, name, fail);

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
          label: { operation: 'createSession', urlTemplate: '/api/v1/verification-sessions' },
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
          label: {
            operation: 'getIdentification',
            urlTemplate: '/api/v1/identifications/{identificationId}',
          },
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
          label: {
            operation: 'verify',
            urlTemplate: '/api/v1/identifications/{identificationId}/verify',
          },
        }),
      );
    },

    qrCodeUrl(verificationSessionId) {
      return `${config.baseUrl}/api/v1/verification-sessions/${idSegment(verificationSessionId, 'verificationSessionId')}/qr-code`;
    },

    close() {
      closing ??= close();
      return closing;
    },
  };
}

/** Turns synchronous validation throws into rejections: every method fails by rejecting. */
async function run<T>(call: () => Promise<T>): Promise<T> {
  return call();
}

type Fail = (failure: Failure) => Error;

/** The body checked before anything is sent: a wrong one is INVALID_REQUEST naming the field. */
function validRequestBody<T>(schema: z.ZodType<T>, body: unknown, what: string, fail: Fail): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const details = issueDetails(parsed.error.issues);
    const summary = details.map((d) => (d.path === '' ? d.message : `${d.path}: ${d.message}`)).join('; ');
    throw fail({ code: 'INVALID_REQUEST', message: `invalid ${what}: ${summary}`, details });
  }
  return parsed.data;
}

/** An id as one path segment: never empty, `.` or `..` (they would change the path), encoded. */
function pathSegment(id: unknown, name: string, fail: Fail): string {
  if (typeof id !== 'string' || id === '' || id === '.' || id === '..' || id.length > MAX_ID_LENGTH) {
    throw fail({
      code: 'INVALID_REQUEST',
      message: `${name} must be a non-empty string of at most ${MAX_ID_LENGTH} characters`,
      details: [{ path: name, message: 'invalid id' }],
    });
  }
  return encodeURIComponent(id);
}
