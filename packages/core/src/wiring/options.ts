import { ERROR_CODES, parseOptions, VerifyKitError, WebhookSecretSchema } from '@verify-kit/client/fetch';
import { DEFAULT_MAX_WAIT_SECONDS, MAX_WAIT_SECONDS } from '@verify-kit/protocol';
import { z } from 'zod';
import {
  BINDING_STORE_METHODS,
  type BindingStore,
  looksLikeRecordStore,
  RECORD_STORE_METHODS,
  type RecordStore,
  toRecordStore,
} from '../bindings/binding-store.js';
import type { AccountOf } from '../bindings/bindings.js';
import type { LimitRedisClient } from '../limits/rate-limits.js';
import type { AuditHandler } from '../shared/audit.js';
import type { Instrumentation } from '../shared/instrumentation.js';
import type { Logger } from '../shared/log.js';
import type { StatusBus } from '../status/status-bus.js';
import type { StatusChangeHandler } from '../status/status-events.js';
import type { ReplayStore } from '../webhooks/replay-store.js';
import { type KitStore, kitStoreProblem } from './kit-store.js';
import { FreshnessSchema, fn, int, isFunction, objectWith, REDIS_CLIENT_ERROR } from './option-schemas.js';
import { SEND_LINK_ARRAY_GONE, SendLinkSchema } from './send-link-options.js';
import { readBudgetOf, withStore } from './store-resolution.js';
import type { SessionOptions, WebhookPayloadParser, WebhookVerifier } from './verify-kit-options.js';

export type {
  Logger,
  ReadLimit,
  SendLinkOptions,
  SessionLimit,
  SessionOptions,
  VerifyKitOptions,
  WebhookPayloadParser,
  WebhookVerifier,
} from './verify-kit-options.js';
export { FreshnessSchema, fn };

const DAY_MS = 86_400_000;

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

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
      })
      .transform((value) => value.replace(/\/+$/, '')),
    apiKey: z
      .string({ error: 'is required: the service’s API key as a string (e.g. process.env.IDV_API_KEY)' })
      .refine((value) => value.trim().length > 0 && !/[\r\n]/.test(value), {
        error: 'must be a non-empty single-line string (check process.env.IDV_API_KEY is set)',
      }),
    workflowId: z
      .string({ error: 'is required: the id of the service’s workflow, e.g. "default"' })
      .min(1, { error: 'must not be empty: the id of the service’s workflow, e.g. "default"' })
      .max(128, { error: 'must be at most 128 characters' }),
    accountOf: fn<AccountOf>(
      'must be a function (req) => the signed-in account id (a string), or undefined for a visitor',
    ).optional(),
    store: z
      .custom<KitStore>()
      .superRefine((value, ctx) => {
        const problem = kitStoreProblem(value);
        if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
      })
      .optional(),
    bindingStore: z
      .custom<RecordStore | BindingStore>()
      .superRefine((value, ctx) => {
        const problem = recordStoreProblem(value);
        if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
      })
      .transform(toRecordStore)
      .optional(),
    onStatusChange: fn<StatusChangeHandler>('must be a function (event) => void').optional(),
    onAudit: fn<AuditHandler>('must be a function (event) => void').optional(),
    instrumentation: fn<Instrumentation>(
      'must be a function (event) => void, e.g. openTelemetry() from @verify-kit/otel',
    ).optional(),
    sendLink: z
      .custom<unknown>((value) => !Array.isArray(value), { error: SEND_LINK_ARRAY_GONE })
      .pipe(SendLinkSchema)
      .optional(),
    longPoll: z.boolean({ error: 'must be true or false' }).default(true),
    maxLongPolls: int('', 1, 1_000_000).default(10_000),
    sessionLimit: z
      .union(
        [
          z.literal(false),
          z.strictObject({
            perClient: int('', 1, 10_000).default(5),
            perIp: int('', 1, 1_000_000).default(60),
            windowSeconds: int('seconds', 1, 86_400).default(60),
            redis: objectWith<LimitRedisClient>(['eval', 'multi', 'del'], REDIS_CLIENT_ERROR).optional(),
            // Filled in by withStore: the store's prefix when its Redis counts, else the default.
            prefix: z.string().max(256, { error: 'must be at most 256 characters' }).optional(),
          }),
        ],
        { error: 'must be false or { perClient?, perIp?, windowSeconds?, redis?, prefix? }' },
      )
      .default({ perClient: 5, perIp: 60, windowSeconds: 60 }),
    maxReadsPerSecond: int('', 1, 10_000).default(5),
    upstreamReadsPerSecond: int('', 1, 100_000).default(20),
    readLimit: z
      .strictObject(
        {
          perClient: int('', 1, 10_000).default(5),
          perIp: int('', 1, 1_000_000).default(100),
          windowSeconds: int('seconds', 1, 3600).default(5),
        },
        { error: 'must be { perClient?, perIp?, windowSeconds? }' },
      )
      .default({ perClient: 5, perIp: 100, windowSeconds: 5 }),
    refusalSettleMs: int('milliseconds', 0, 600_000).default(5000),
    freshness: FreshnessSchema.default('visit'),
    visitIdleMs: int('milliseconds', 1000, DAY_MS).default(30 * 60_000),
    maxAgeMs: int('milliseconds', 0, DAY_MS).default(5 * 60_000),
    staleIfErrorMs: int('milliseconds', 0, DAY_MS).default(60 * 60_000),
    allowInsecureHttp: z.boolean({ error: 'must be true or false' }).default(false),
    strict: z.boolean({ error: 'must be true or false' }).default(false),
    webhookPayload: fn<WebhookPayloadParser>(
      'must be a function (json) => ({ identificationId, type }) or undefined for a body it does not know',
    ).optional(),
    sessionOptions: fn<(req: never) => SessionOptions | Promise<SessionOptions>>(
      'must be a function (req) => ({ email?, phoneNumber?, locale?, … }) returning the rest of the session body',
    ).optional(),
    webhookSecret: z
      .union(
        [
          WebhookSecretSchema,
          z.array(WebhookSecretSchema).min(1, { error: 'must list at least one secret' }),
        ],
        {
          error:
            'must be a whsec_<base64> string, or an array of them during a rotation (e.g. process.env.IDV_WEBHOOK_SECRET)',
        },
      )
      .transform((secrets): readonly string[] => (typeof secrets === 'string' ? [secrets] : secrets))
      .optional(),
    webhookVerifier: fn<WebhookVerifier<never>>(
      'must be a function ({ headers, body }) => ({ id }) that throws on a bad signature',
    ).optional(),
    timeoutMs: int('milliseconds', 1, 120_000).optional(),
    retries: int('', 0, 10).optional(),
    // Checked by shape; typed as the client's Dispatcher where it is passed on (core.ts).
    dispatcher: objectWith<{ dispatch(...args: never[]): unknown }>(
      ['dispatch'],
      'must be an undici Dispatcher (Agent, Pool, ProxyAgent…)',
    ).optional(),
    pollIntervalMs: int('milliseconds', 50, 60_000).default(2000),
    maxWaitSeconds: int('seconds', 0, MAX_WAIT_SECONDS).default(DEFAULT_MAX_WAIT_SECONDS),
    statusBus: objectWith<StatusBus>(
      ['publish', 'subscribe'],
      'must be an object with publish(identificationId, hint) and subscribe(listener) => unsubscribe',
    ).optional(),
    replayStore: objectWith<ReplayStore>(
      ['claim'],
      'must be an object with claim(id, ttlSeconds) => boolean | Promise<boolean>',
    ).optional(),
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
    now: fn<() => number>('must be a function returning epoch milliseconds').default(() => Date.now),
  })
  .superRefine((options, ctx) => {
    if (options.staleIfErrorMs < options.maxAgeMs) {
      ctx.addIssue({
        code: 'custom',
        path: ['staleIfErrorMs'],
        message: `must be at least maxAgeMs (${options.maxAgeMs}): a stored decision is re-read once older than maxAgeMs and served while re-reads fail for at most staleIfErrorMs`,
      });
    }
    if (options.webhookSecret !== undefined && options.webhookVerifier !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['webhookVerifier'],
        message: 'cannot be combined with webhookSecret: pass one of them',
      });
    }
    const url = URL.canParse(options.baseUrl) ? new URL(options.baseUrl) : undefined;
    if (url?.protocol === 'http:' && !LOOPBACK.test(url.hostname) && !options.allowInsecureHttp) {
      ctx.addIssue({
        code: 'custom',
        path: ['baseUrl'],
        message:
          'uses http:// to another machine: the API key would travel in clear text; use https:// (or allowInsecureHttp: true on a private network)',
      });
    }
  })
  .transform(withStore)
  .transform((options) => ({ ...options, readBudget: readBudgetOf(options) }));

const RECORD_STORE_SHAPE =
  'RecordStore { bindings: { get, set, delete }, statusRecords: { get, compareAndSet, delete }, decisions: { get, put, delete } } (see createMemoryBindingStore)';

/**
 * What `bindingStore` lacks, naming each missing method: a RecordStore's (any of its parts given),
 * else the deprecated flat BindingStore's; undefined when it has them all.
 */
function recordStoreProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return `must be a ${RECORD_STORE_SHAPE}`;
  const methods = value as Record<string, unknown>;
  if (looksLikeRecordStore(value)) {
    const missing = Object.entries(RECORD_STORE_METHODS).flatMap(([part, names]) =>
      names
        .filter((name) => !isFunction((methods[part] as Record<string, unknown> | undefined)?.[name]))
        .map((name) => `${part}.${name}`),
    );
    return missing.length === 0
      ? undefined
      : `must implement ${RECORD_STORE_SHAPE}: ${missing.join(', ')} missing`;
  }
  const missing = BINDING_STORE_METHODS.filter((name) => !isFunction(methods[name]));
  return missing.length === 0
    ? undefined
    : `must implement ${RECORD_STORE_SHAPE}; read as the deprecated flat BindingStore it lacks ${missing.join(', ')}`;
}

/** The options after validation, with every default filled in. */
export type ResolvedOptions = z.output<typeof OptionsSchema>;

/** The one INVALID_OPTIONS error of verify-kit (`details`: `[{ path, message }]`), for the gate's options too. */
export { invalidOptions } from '@verify-kit/client/fetch';

export function resolveOptions(input: unknown): ResolvedOptions {
  if (typeof input !== 'object' || input === null) {
    throw new VerifyKitError(
      ERROR_CODES.INVALID_OPTIONS,
      'createVerifyKit: options must be an object: createVerifyKit({ baseUrl, apiKey, workflowId })',
    );
  }
  return parseOptions(OptionsSchema, input, 'createVerifyKit');
}
