import type { IncomingHttpHeaders } from 'node:http';
import {
  type ClientOptions,
  type CreateSessionRequest,
  ERROR_CODES,
  VerifyKitError,
} from '@verify-kit/client';
import type { Request } from 'express';
import { z } from 'zod';
import { MAX_WAIT_SECONDS } from './protocol.js';
import type { ReplayStore } from './replay-store.js';
import type { StatusBus } from './status-bus.js';

/** An undici Dispatcher, as the client takes it (its type comes through the client). */
export type Dispatcher = NonNullable<ClientOptions['dispatcher']>;

/** What sessionOptions(req) returns: the creation body minus workflowId (which it may override). */
export type SessionOptions = Partial<CreateSessionRequest>;

export interface WebhookVerifierInput {
  headers: IncomingHttpHeaders;
  /** The raw body, exactly as received. */
  body: Buffer;
}

/**
 * A custom webhook verifier: throw (a VerifyKitError with a WEBHOOK_* code, or anything) to refuse,
 * return the delivery's unique id to accept (used to refuse replays).
 */
export type WebhookVerifier = (input: WebhookVerifierInput) => { id: string } | Promise<{ id: string }>;

export interface Logger {
  debug?(message: string, meta?: Record<string, unknown>): void;
  info?(message: string, meta?: Record<string, unknown>): void;
  warn?(message: string, meta?: Record<string, unknown>): void;
  error?(message: string, meta?: Record<string, unknown>): void;
}

export interface VerifyKitOptions {
  /** The service's base address, e.g. https://idv.example.com (no /api/v1). */
  baseUrl: string;
  /** The service's API key. Stays in this process: never sent to a browser, never logged. */
  apiKey: string;
  workflowId: string;
  /** The rest of the creation body for this request's user (email, locale, approvalCriteria…). */
  sessionOptions?: (req: Request) => SessionOptions | Promise<SessionOptions>;
  /** `whsec_<base64>`; several during a rotation (any one valid signature passes). */
  webhookSecret?: string | readonly string[];
  /** Instead of webhookSecret: your own verification. */
  webhookVerifier?: WebhookVerifier;
  /** Per upstream attempt. Default: the client's (10 000). */
  timeoutMs?: number;
  /** Extra attempts of an upstream read. Default: the client's (2). */
  retries?: number;
  /** An undici Dispatcher for the upstream calls (proxy, custom TLS). */
  dispatcher?: Dispatcher;
  /** How often a waiting long-poll re-reads the upstream. Default 2000. */
  pollIntervalMs?: number;
  /** Upper bound of `wait` on GET /status. Default and maximum 30. */
  maxWaitSeconds?: number;
  /** Delivers webhook hints to long-polls; default in memory (one process). */
  statusBus?: StatusBus;
  /** Shared memory of accepted webhook-ids (several instances); the kit's own in-process memory always runs too. */
  replayStore?: ReplayStore;
  /** Silent by default except misconfiguration warnings (console.warn). */
  logger?: Logger;
  /** Epoch ms; for tests that move time. Default Date.now. */
  now?: () => number;
}

export interface ResolvedOptions {
  baseUrl: string;
  apiKey: string;
  workflowId: string;
  sessionOptions: VerifyKitOptions['sessionOptions'];
  webhookSecrets: readonly string[] | undefined;
  webhookVerifier: WebhookVerifier | undefined;
  timeoutMs: number | undefined;
  retries: number | undefined;
  dispatcher: Dispatcher | undefined;
  pollIntervalMs: number;
  maxWaitSeconds: number;
  statusBus: StatusBus | undefined;
  replayStore: ReplayStore | undefined;
  logger: Logger | undefined;
  now: () => number;
}

const isFunction = (value: unknown): boolean => typeof value === 'function';
export const fn = <T>(message: string) => z.custom<T>(isFunction, { error: message });

const WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/]+={0,2}$/;
const webhookSecretSchema = z
  .string({ error: 'must be a string' })
  .refine((secret) => WEBHOOK_SECRET.test(secret) && Buffer.from(secret.slice(6), 'base64').length >= 16, {
    error:
      'must look like whsec_<base64 of at least 16 bytes> (copy it from the service’s webhook settings, e.g. process.env.IDV_WEBHOOK_SECRET)',
  });

const OptionsSchema = z
  .strictObject({
    baseUrl: z
      .string({
        error: 'is required: the service’s address, e.g. https://idv.example.com (process.env.IDV_BASE_URL)',
      })
      .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
        error: 'must be an http(s) URL, e.g. https://idv.example.com',
      })
      .refine((value) => !/\/api\/v1\/?$/.test(value), {
        error: 'must not end with /api/v1: give the service’s base address only',
      }),
    apiKey: z
      .string({ error: 'is required: the service’s API key as a string (e.g. process.env.IDV_API_KEY)' })
      .refine((value) => value.trim().length > 0 && !/[\r\n]/.test(value), {
        error: 'must be a non-empty single-line string (check process.env.IDV_API_KEY is set)',
      }),
    workflowId: z
      .string({ error: 'is required: the id of the service’s workflow, e.g. "default"' })
      .min(1, { error: 'must not be empty: the id of the service’s workflow, e.g. "default"' })
      .max(128, { error: 'must be at most 128 characters' }),
    sessionOptions: fn<VerifyKitOptions['sessionOptions']>(
      'must be a function (req) => ({ email?, phoneNumber?, locale?, … }) returning the rest of the session body',
    ).optional(),
    webhookSecret: z
      .union(
        [
          webhookSecretSchema,
          z.array(webhookSecretSchema).min(1, { error: 'must list at least one secret' }),
        ],
        {
          error:
            'must be a whsec_<base64> string, or an array of them during a rotation (e.g. process.env.IDV_WEBHOOK_SECRET)',
        },
      )
      .optional(),
    webhookVerifier: fn<WebhookVerifier>(
      'must be a function ({ headers, body }) => ({ id }) that throws on a bad signature',
    ).optional(),
    timeoutMs: z
      .int({ error: 'must be an integer number of milliseconds' })
      .min(1, { error: 'must be at least 1 ms' })
      .max(120_000, { error: 'must be at most 120000 ms' })
      .optional(),
    retries: z
      .int({ error: 'must be an integer' })
      .min(0, { error: 'must be 0 or more' })
      .max(10, { error: 'must be at most 10' })
      .optional(),
    dispatcher: z
      .custom<Dispatcher>(
        (value) => typeof value === 'object' && value !== null && isFunction((value as Dispatcher).dispatch),
        {
          error: 'must be an undici Dispatcher (Agent, Pool, ProxyAgent…)',
        },
      )
      .optional(),
    pollIntervalMs: z
      .int({ error: 'must be an integer number of milliseconds' })
      .min(50, { error: 'must be at least 50 ms' })
      .max(60_000, { error: 'must be at most 60000 ms' })
      .optional(),
    maxWaitSeconds: z
      .int({ error: 'must be an integer number of seconds' })
      .min(0, { error: 'must be 0 or more' })
      .max(MAX_WAIT_SECONDS, { error: `must be at most ${MAX_WAIT_SECONDS} seconds` })
      .optional(),
    statusBus: z
      .custom<StatusBus>(
        (value) =>
          typeof value === 'object' &&
          value !== null &&
          isFunction((value as StatusBus).publish) &&
          isFunction((value as StatusBus).subscribe),
        {
          error:
            'must be an object with publish(identificationId, hint) and subscribe(listener) => unsubscribe',
        },
      )
      .optional(),
    replayStore: z
      .custom<ReplayStore>(
        (value) => typeof value === 'object' && value !== null && isFunction((value as ReplayStore).claim),
        { error: 'must be an object with claim(id, ttlSeconds) => boolean | Promise<boolean>' },
      )
      .optional(),
    logger: z
      .custom<Logger>(
        (value) =>
          typeof value === 'object' &&
          value !== null &&
          (['debug', 'info', 'warn', 'error'] as const).every(
            (level) => (value as Logger)[level] === undefined || isFunction((value as Logger)[level]),
          ),
        { error: 'must be an object with optional debug/info/warn/error functions (console works)' },
      )
      .optional(),
    now: fn<() => number>('must be a function returning epoch milliseconds').optional(),
  })
  .superRefine((options, ctx) => {
    if (options.webhookSecret !== undefined && options.webhookVerifier !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['webhookVerifier'],
        message: 'cannot be combined with webhookSecret: pass one of them',
      });
    }
  });

const KNOWN_OPTIONS = Object.keys(OptionsSchema.shape ?? {});

/** An INVALID_OPTIONS error naming each wrong option of `factory` and how to fix it. */
export function invalidOptions(factory: string, error: z.ZodError, known: readonly string[]): VerifyKitError {
  const details = error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return {
        option: issue.keys.join(', '),
        message: `is not an option of ${factory} (known: ${known.join(', ')})`,
      };
    }
    const option = issue.path.map(String).join('.') || '(options)';
    // Our messages never contain the value given (which could be the API key or a secret).
    return { option, message: issue.message };
  });
  const message = `${factory}: invalid options: ${details.map((d) => `${d.option} ${d.message}`).join('; ')}`;
  return new VerifyKitError(ERROR_CODES.INVALID_OPTIONS, message, { details });
}

export function resolveOptions(input: unknown): ResolvedOptions {
  if (typeof input !== 'object' || input === null) {
    throw new VerifyKitError(
      ERROR_CODES.INVALID_OPTIONS,
      'createVerifyKit: options must be an object: createVerifyKit({ baseUrl, apiKey, workflowId })',
    );
  }
  const parsed = OptionsSchema.safeParse(input);
  if (!parsed.success) throw invalidOptions('createVerifyKit', parsed.error, KNOWN_OPTIONS);
  const o = parsed.data;
  return {
    baseUrl: o.baseUrl.replace(/\/+$/, ''),
    apiKey: o.apiKey,
    workflowId: o.workflowId,
    sessionOptions: o.sessionOptions,
    webhookSecrets:
      o.webhookSecret === undefined
        ? undefined
        : typeof o.webhookSecret === 'string'
          ? [o.webhookSecret]
          : o.webhookSecret,
    webhookVerifier: o.webhookVerifier,
    timeoutMs: o.timeoutMs,
    retries: o.retries,
    dispatcher: o.dispatcher,
    pollIntervalMs: o.pollIntervalMs ?? 2000,
    maxWaitSeconds: o.maxWaitSeconds ?? MAX_WAIT_SECONDS,
    statusBus: o.statusBus,
    replayStore: o.replayStore,
    logger: o.logger,
    now: o.now ?? Date.now,
  };
}
