import type { CreateSessionRequest } from '@verify-kit/client/fetch';
import type { BindingStore, RecordStore } from '../bindings/binding-store.js';
import type { Freshness } from '../decisions/decisions.js';
import type { LimitRedisClient } from '../limits/rate-limits.js';
import type { AuditHandler } from '../shared/audit.js';
import type { Instrumentation } from '../shared/instrumentation.js';
import type { Logger } from '../shared/log.js';
import type { StatusBus } from '../status/status-bus.js';
import type { StatusChangeHandler } from '../status/status-events.js';
import type { ReplayStore } from '../webhooks/replay-store.js';
import type { KitStore } from './kit-store.js';
import type { SendLinkOptions as SendLinkOptionsOf } from './send-link-options.js';

// The kit's options as an app writes them; options.ts checks them and fills in the defaults.

/**
 * What a webhook is about, from its parsed JSON: the identification, the event type, the status it
 * gives and when it happened (`occurredAt`: epoch ms or ISO 8601; a review step that happened before
 * a read never displaces what the read said).
 */
export type WebhookPayloadParser = (
  json: unknown,
) => { identificationId: string; type: string; status?: string; occurredAt?: number | string } | undefined;

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
   * the read budget, send counts and the status bus), or `sqlStore(driver)` from
   * `@verify-kit/core/sql` (bindings, status records, decisions and replay keys in your database; the
   * counts and the status bus stay in each process unless given on their own). Default: each part in
   * memory (one process). `bindingStore`, `statusBus`, `replayStore`, `sessionLimit.redis` and
   * `sendLink.redis`, when given, take precedence for their part. `kit.close()` closes it.
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
  /**
   * Told of what the kit does, with no personal data (no id, code or contact): gate decisions,
   * upstream calls, sessions created, webhooks, limit refusals, long-polls. `openTelemetry()` from
   * `@verify-kit/otel` maps them to OpenTelemetry metrics and spans. Default none (nothing is built).
   */
  instrumentation?: Instrumentation;
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
