import {
  type CreateSessionRequest,
  ERROR_CODES,
  parseOptions,
  VerifyKitError,
  WebhookSecretSchema,
} from '@verify-kit/client/fetch';
import { DEFAULT_MAX_WAIT_SECONDS, MAX_WAIT_SECONDS } from '@verify-kit/protocol';
import { z } from 'zod';
import {
  BINDING_STORE_METHODS,
  type BindingStore,
  createMemoryBindingStore,
  looksLikeRecordStore,
  RECORD_STORE_METHODS,
  type RecordStore,
  toRecordStore,
} from '../bindings/binding-store.js';
import type { AccountOf } from '../bindings/bindings.js';
import { DEFAULT_SEND_PREFIX } from '../creation/send-link.js';
import type { Freshness } from '../decisions/decisions.js';
import { DEFAULT_LIMIT_PREFIX, type LimitRedisClient } from '../limits/rate-limits.js';
import type { ReadBudgetSettings } from '../limits/read-budget.js';
import type { AuditHandler } from '../shared/audit.js';
import type { Logger } from '../shared/log.js';
import type { StatusBus } from '../status/status-bus.js';
import type { StatusChangeHandler } from '../status/status-events.js';
import type { ReplayStore } from '../webhooks/replay-store.js';
import { isKitStore, KIT_STORE_ERROR, type KitStore } from './kit-store.js';
import { FreshnessSchema, fn, int, isFunction, objectWith, REDIS_CLIENT_ERROR } from './option-schemas.js';
import {
  SEND_LINK_ARRAY_GONE,
  type SendLinkOptions as SendLinkOptionsOf,
  SendLinkSchema,
} from './send-link-options.js';

/** What a webhook is about, from its parsed JSON: the identification and the event type. */
export type WebhookPayloadParser = (
  json: unknown,
) => { identificationId: string; type: string; status?: string } | undefined;

/**
 * Creation limits per window: per client (browser or account) and per address. Counted in this
 * process, or with `redis` in Redis, shared by every instance and kept across restarts.
 */
export interface SessionLimit {
  /** New sessions per browser and per account in a window. Default 5. */
  perClient?: number;
  /** New sessions per address in a window, for the whole deployment with `redis`. Default 60. */
  perIp?: number;
  /** Default 60. */
  windowSeconds?: number;
  /** A connected node-redis v6 client (yours: the kit never closes it): the counts are shared. */
  redis?: LimitRedisClient;
  /** Redis key prefix. Default `verify-kit:limit:`. */
  prefix?: string;
}

/** What sessionOptions(req) returns: the creation body minus workflowId (which it may override). */
export type SessionOptions = Partial<CreateSessionRequest>;

/**
 * A custom webhook verifier: throw (a VerifyKitError with a WEBHOOK_* code, or anything) to refuse,
 * return the delivery's unique id to accept (used to refuse replays).
 */
export type WebhookVerifier<Input> = (input: Input) => { id: string } | Promise<{ id: string }>;

export type { Logger };
/** Send-link's options, with the server's request as contactOf's and beforeSend's. */
export type SendLinkOptions<Req> = SendLinkOptionsOf<Req>;
export { FreshnessSchema, fn };

/**
 * Upstream status reads a browser's requests may start in a window (GET /status, long-polls, gated
 * requests of a person not yet verified); beyond, the last read or 429 TOO_MANY_STATUS_READS.
 */
export interface ReadLimit {
  /** Per browser session or account. Default 5 (one a second, in bursts). */
  perClient?: number;
  /** Per address (an IPv6 address as its /64). Default 100. */
  perIp?: number;
  /** Default 5. */
  windowSeconds?: number;
}

/**
 * The kit's options on any server: `Req` is what accountOf, sessionOptions and sendLink's hooks are
 * given (Express's request, a Fetch Request), `VerifierInput` what webhookVerifier is given.
 */
export interface VerifyKitOptions<Req, VerifierInput> {
  /** The service's base address, e.g. https://idv.example.com (no /api/v1). */
  baseUrl: string;
  /** The service's API key. Stays in this process: never sent to a browser, never logged. */
  apiKey: string;
  workflowId: string;
  /**
   * The signed-in account of this request (undefined: an anonymous visitor). With it, a verification
   * belongs to the account, kept in `bindingStore`, and follows the person across sign-ins and devices.
   */
  accountOf?: (req: Req) => string | number | undefined | Promise<string | number | undefined>;
  /**
   * Every part several instances share, in one option: `redisStore({ client } | { url })` from
   * `@verify-kit/express/redis` (bindings, status records, decisions, replay keys, creation limits,
   * the read budget, send counts and the status bus). Default: each part in memory (one process).
   * `bindingStore`, `statusBus`, `replayStore`, `sessionLimit.redis` and `sendLink.redis`, when
   * given, take precedence for their part. `kit.close()` closes it.
   */
  store?: KitStore;
  /**
   * Where account bindings, last-seen statuses and stored decisions live: a `RecordStore`
   * (`bindings`, `statusRecords`, `decisions`), e.g. `createRedisBindingStore(...)` or your database.
   * Default: `store`'s, else in memory (one process). A store of the deprecated flat `BindingStore`
   * shape is still taken (adapted) until 1.0.
   */
  bindingStore?: RecordStore | BindingStore;
  /** Told once per status transition of a verification this kit created, from upstream reads. */
  onStatusChange?: StatusChangeHandler;
  /** Told of each session created, gate decision, accepted webhook and forget (ids only). */
  onAudit?: AuditHandler;
  /** Lets the person have the link sent to their own contact (`POST /session { sendTo: { channel } }`). Default off. */
  sendLink?: SendLinkOptions<Req>;
  /** false: GET /status never holds a request (serverless); the widget polls after `pollAfterMs`. Default true. */
  longPoll?: boolean;
  /** Open long-polls per process; beyond, 429 TOO_MANY_LONG_POLLS. Default 10000 (4 per verification always). */
  maxLongPolls?: number;
  /** Creations per window; false: no limit (e.g. behind your own). Default 5 per client, 60 per address, 60 s. */
  sessionLimit?: SessionLimit | false;
  /** Upstream reads per identification per second; more are served a read under 1 s old. Default 5. */
  maxReadsPerSecond?: number;
  /**
   * The deployment's upstream status reads per second (with `sessionLimit.redis`, shared by every
   * instance; else per process), below the service's limit on your key. Browsers' reads get half;
   * the gate's reads of verified people and the kit's own always go through. Default 20.
   */
  upstreamReadsPerSecond?: number;
  /** Status reads a browser's requests may start, per client and per address. Default 5 and 100 in 5 s. */
  readLimit?: ReadLimit;
  /** A verified refusal (webhook) holds this long against reads that still say APPROVED. Default 5000. */
  refusalSettleMs?: number;
  /**
   * 'visit' (default): the first gated request of a visit reads the status, the rest of the visit is
   * answered from the stored decision. 'every-request': every gated request reads (README, "Freshness
   * and outages").
   */
  freshness?: Freshness;
  /** A visit ends after this long without a gated request. Default 1 800 000 (30 minutes). */
  visitIdleMs?: number;
  /** A stored decision older than this is re-read in the background while served. Default 300 000 (5 minutes). */
  maxAgeMs?: number;
  /** Inside a visit, a stored APPROVED is served this long past its last successful read while re-reads fail. Default 3 600 000 (1 hour). */
  staleIfErrorMs?: number;
  /** Allow http:// to a host that is not this machine (the API key travels in clear text). Default false. */
  allowInsecureHttp?: boolean;
  /** The webhook body's meaning; default the v1 event `{ type, data: { identificationId } }`. */
  webhookPayload?: WebhookPayloadParser;
  /** The rest of the creation body for this request's user (email, locale, approvalCriteria…). */
  sessionOptions?: (req: Req) => SessionOptions | Promise<SessionOptions>;
  /** `whsec_<base64>`; several during a rotation (any one valid signature passes). */
  webhookSecret?: string | readonly string[];
  /** Instead of webhookSecret: your own verification. */
  webhookVerifier?: WebhookVerifier<VerifierInput>;
  /** Per upstream attempt. Default: the client's (10 000). */
  timeoutMs?: number;
  /** Extra attempts of an upstream read. Default: the client's (2). */
  retries?: number;
  /** Node shells: an undici Dispatcher for the upstream calls (proxy, custom TLS). */
  dispatcher?: object;
  /** How often a waiting long-poll re-reads the upstream. Default 2000. */
  pollIntervalMs?: number;
  /** Upper bound of `wait` on GET /status. Default 25 (below API gateways' 29 s), maximum 30. */
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
    store: z.custom<KitStore>(isKitStore, { error: KIT_STORE_ERROR }).optional(),
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

interface CountedIn {
  redis?: LimitRedisClient | undefined;
  prefix?: string | undefined;
}

/** Where one kind of count is kept: the option's own Redis and prefix, else the store's, else memory. */
function countsIn<T extends CountedIn>(
  given: T,
  store: { redis: LimitRedisClient; prefix: string } | undefined,
  defaultPrefix: string,
): T & { prefix: string } {
  if (given.redis !== undefined || store === undefined) {
    return { ...given, prefix: given.prefix ?? defaultPrefix };
  }
  return { ...given, redis: store.redis, prefix: given.prefix ?? store.prefix };
}

/**
 * `store` fills in every shared part not given on its own: an option given for a part
 * (`bindingStore`, `statusBus`, `replayStore`, `sessionLimit.redis`, `sendLink.redis`, and
 * `sessionLimit: false`) keeps it, so a kit configured part by part behaves as before.
 */
function withStore<
  T extends {
    store?: KitStore | undefined;
    bindingStore?: RecordStore | undefined;
    statusBus?: StatusBus | undefined;
    replayStore?: ReplayStore | undefined;
    sessionLimit: false | (CountedIn & { perClient: number; perIp: number; windowSeconds: number });
    sendLink?: (CountedIn & object) | undefined;
  },
>(options: T) {
  const { store, sessionLimit, sendLink } = options;
  const counts = store?.counts;
  return {
    ...options,
    bindingStore: options.bindingStore ?? store?.bindings ?? createMemoryBindingStore(),
    statusBus: options.statusBus ?? store?.statusBus,
    replayStore: options.replayStore ?? store?.replayStore,
    sessionLimit:
      sessionLimit === false
        ? (false as const)
        : countsIn(
            sessionLimit,
            counts && { redis: counts.redis, prefix: counts.limitPrefix },
            DEFAULT_LIMIT_PREFIX,
          ),
    sendLink:
      sendLink === undefined
        ? undefined
        : countsIn(
            sendLink,
            counts && { redis: counts.redis, prefix: counts.sendPrefix },
            DEFAULT_SEND_PREFIX,
          ),
  };
}

/**
 * The read budget's counts live beside the creation limits' (in their Redis when there is one), or
 * in the store's when the creation limits are the app's own (`sessionLimit: false`).
 */
function readBudgetOf(options: {
  upstreamReadsPerSecond: number;
  readLimit: { perClient: number; perIp: number; windowSeconds: number };
  sessionLimit: false | { redis?: LimitRedisClient | undefined; prefix: string };
  store?: KitStore | undefined;
}): ReadBudgetSettings {
  const counts = options.store?.counts;
  const limit =
    options.sessionLimit === false
      ? counts && { redis: counts.redis, prefix: counts.limitPrefix }
      : options.sessionLimit;
  return {
    upstreamPerSecond: options.upstreamReadsPerSecond,
    ...options.readLimit,
    redis: limit?.redis,
    prefix: `${limit?.prefix ?? DEFAULT_LIMIT_PREFIX}read:`,
  };
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
