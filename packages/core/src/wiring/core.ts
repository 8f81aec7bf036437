import {
  type FetchClientOptions,
  type Identification,
  isVerifyKitError,
  type VerifyClient,
} from '@verify-kit/client/fetch';
import type { SendLinkOffer, SessionResponseBody, StatusResponseBody } from '@verify-kit/protocol';
import type { VerificationBinding } from '../bindings/binding.js';
import { Bindings, type Owner } from '../bindings/bindings.js';
import type { KitRequest } from '../bindings/kit-request.js';
import { QrImages } from '../creation/qr-image.js';
import { SendLink } from '../creation/send-link.js';
import { SessionCreations } from '../creation/session-creation.js';
import { type DecideOptions, Decisions, type VisitMarker } from '../decisions/decisions.js';
import type { Found, Verdict } from '../decisions/verdict.js';
import { type CountIn, countInMemory } from '../limits/counter.js';
import { RateLimits } from '../limits/rate-limits.js';
import { browserCause, ReadBudget } from '../limits/read-budget.js';
import { createAudit } from '../shared/audit.js';
import { ERROR_CODE, isUpstreamError, kitError } from '../shared/errors.js';
import { sameIdentification } from '../shared/identification-key.js';
import { createInstrument, type Instrument } from '../shared/instrumentation.js';
import { createLog, type Log } from '../shared/log.js';
import type { Maybe } from '../shared/maybe.js';
import { sha256Base64Url } from '../shared/sha256.js';
import { phaseOf } from '../status/phase.js';
import { createMemoryStatusBus, type StatusBus, type StatusHint } from '../status/status-bus.js';
import { StatusEvents } from '../status/status-events.js';
import { isGone, StatusReader } from '../status/status-reader.js';
import { StatusWatch } from '../status/status-watch.js';
import { SESSION_ENDED_EVENTS, SubmissionHints } from '../webhooks/submission-hints.js';
import type { ResolvedOptions } from './options.js';
import { assertStoreFitsPlatform } from './platform-store.js';
import { sharingWarnings } from './shared-parts.js';
import { Verdicts } from './verdicts.js';

export type { Found };

/** What the upstream client is made from (the shell adds its own transport's options). */
export type UpstreamConfig = FetchClientOptions;

/** What a shell brings of its runtime to the engine. */
export interface ShellParts {
  connect: (config: UpstreamConfig) => VerifyClient;
  countIn?: CountIn;
}

export type Lookup = Found | { owner: Owner; binding: undefined };

/** Everything the routes and the gate share; one per createVerifyKit call. */
export class KitCore {
  readonly log: Log;
  /** The `instrumentation` option's listener; undefined without one: `core.instrument?.(event)`. */
  readonly instrument: Instrument | undefined;
  readonly client: VerifyClient;
  readonly reader: StatusReader;
  readonly hints: SubmissionHints;
  readonly watch: StatusWatch;
  readonly creations = new SessionCreations();
  readonly qr = new QrImages();
  readonly bindings: Bindings;
  readonly events: StatusEvents;
  readonly decisions: Decisions;
  readonly audit: ReturnType<typeof createAudit>;
  readonly limits: RateLimits;
  readonly sendLink: SendLink;
  readonly bus: StatusBus;
  readonly #verdicts: Verdicts;
  readonly #unsubscribe: () => void;
  #closed = false;
  #draining = false;
  readonly #closers = new Set<() => void>();
  readonly #warned = new Set<string>();

  /**
   * `parts`: what the shell brings of its runtime: the upstream client (Express: undici's pool;
   * elsewhere: fetch) and the counters of the limits (Node: rate-limiter-flexible; default memory).
   */
  constructor(
    readonly options: ResolvedOptions,
    { connect, countIn = countInMemory }: ShellParts,
  ) {
    this.log = createLog(options.logger, options.apiKey);
    const instrument = createInstrument(options.instrumentation, this.log);
    this.instrument = instrument;
    this.client = connect({
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      ...(options.retries === undefined ? {} : { retries: options.retries }),
      strict: options.strict,
      allowInsecureHttp: options.allowInsecureHttp,
      logger: this.log,
      ...(instrument && { onAttempt: (attempt) => instrument({ type: 'upstream.request', ...attempt }) }),
    });
    this.bindings = new Bindings(options.accountOf, options.bindingStore, this.log);
    assertStoreFitsPlatform(this.bindings.accountMode, options.bindingStore);
    this.events = new StatusEvents(
      this.bindings,
      options.onStatusChange,
      (record, identification) => this.describe(record, identification).phase,
      this.log,
    );
    this.reader = new StatusReader(this.client, options.now, {
      maxReadsPerSecond: options.maxReadsPerSecond,
      budget: new ReadBudget(options.readBudget, this.log, countIn, instrument),
      onRead: (id, identification, startedAt) => {
        this.events.observe(id, identification, startedAt);
        return this.decisions.record(id, identification.status, startedAt);
      },
      onDefinitive: (id) => {
        this.decisions.invalidate(id).catch(() => undefined); // logged by the store wrapper
      },
    });
    this.decisions = new Decisions(this.reader, this.bindings, options, this.log, options.now);
    this.#verdicts = new Verdicts(this.bindings, this.decisions, this, () => this.now());
    this.audit = createAudit(options.onAudit, this.log, options.now);
    this.limits = new RateLimits(options.sessionLimit, options.maxLongPolls, this.log, countIn, instrument);
    this.sendLink = new SendLink(
      options.sendLink,
      (message) => this.warnOnce(message),
      (retryAfterSeconds) => {
        this.log.warn(
          `sendLink: the hourly budget of ${options.sendLink?.perHour} sends is spent; sends are refused (429) for ${retryAfterSeconds} s`,
        );
        this.audit({ type: 'send-link.budget-spent', detail: String(retryAfterSeconds) });
      },
      countIn,
      instrument && (() => instrument({ type: 'limit.refused', limit: 'sends' })),
    );
    this.hints = new SubmissionHints(options.now);
    this.watch = new StatusWatch(this.reader, options.pollIntervalMs);
    this.bus = options.statusBus ?? createMemoryStatusBus();
    this.#unsubscribe = this.bus.subscribe((identificationId, hint) =>
      this.applyHint(identificationId, hint),
    );
    for (const warning of sharingWarnings(options, countIn === countInMemory)) this.warnOnce(warning);
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** kit.shutdown() began: not ready, answers close their connection. */
  get draining(): boolean {
    return this.#draining;
  }

  startDraining(): void {
    this.#draining = true;
  }

  now(): number {
    return this.options.now();
  }

  /** A verified webhook (here or on another instance): forget cached reads, wake the long-polls. */
  applyHint(identificationId: string, hint: StatusHint): void {
    if (typeof identificationId !== 'string' || identificationId.length === 0) return;
    if (hint?.documentSubmitted === true) this.hints.note(identificationId);
    if (typeof hint?.type === 'string' && SESSION_ENDED_EVENTS.includes(hint.type)) {
      this.hints.noteSessionEnded(identificationId);
    }
    this.decisions.onHint(identificationId, hint);
    this.reader.invalidate(identificationId);
    this.watch.poke(identificationId);
  }

  /** How a status reads for people; `pollAfterMs` when the kit holds no long-polls. */
  describe(
    ref: { identificationId?: string; expiresAt: string },
    identification: Identification,
  ): StatusResponseBody {
    const id = ref.identificationId ?? identification.id;
    return {
      status: identification.status,
      phase: phaseOf({
        status: identification.status,
        expiresAt: ref.expiresAt,
        documentSubmitted: this.hints.documentSubmitted(identification, id),
        sessionEnded: this.hints.sessionEnded(id),
        now: this.now(),
      }),
      expiresAt: ref.expiresAt,
      ...(this.options.longPoll ? {} : { pollAfterMs: this.options.pollIntervalMs }),
    };
  }

  /** A verification just created (decision 1): IN_AUTOMATIC_REVIEW, nothing submitted yet; no read. */
  createdView(binding: VerificationBinding): StatusResponseBody {
    return this.describe(binding, { id: binding.identificationId, status: 'IN_AUTOMATIC_REVIEW' });
  }

  /**
   * The verification this request may use, with its status read now (or within `reuseWithinMs`; the
   * last read when this browser is over its read budget). `binding` undefined: none bound,
   * (anonymous) not proven by the binding secret, or gone at the service (isGone).
   */
  async lookup(req: KitRequest, reuseWithinMs = 0, known?: Owner): Promise<Lookup> {
    const owner = known ?? (await this.bindings.ownerOf(req));
    const binding = await this.bindings.find(req, owner);
    if (binding === undefined) return { owner, binding };
    let identification: Identification;
    try {
      identification = await this.reader.read(binding.identificationId, {
        reuseWithinMs,
        cause: () => browserCause(req, owner),
        whenRefused: 'last',
      });
    } catch (error) {
      if (isGone(error)) return { owner, binding: undefined };
      throw error;
    }
    return { owner, binding, identification, view: this.describe(binding, identification) };
  }

  /**
   * The one decision of a gated request (the gate, statusOf), in one order of steps for every store:
   * the visit's stored decision, then the binding, then a read (decisions.ts). A verdict at once
   * when everything answers at once (accountOf, a store of this process: BENCHMARKS.md, "Where the
   * time goes inside a visit"), else a promise of one. Throws only what is not the service's
   * (a closed kit, accountOf, a store that fails).
   */
  decide(req: KitRequest, options: DecideOptions = {}): Maybe<Verdict> {
    this.assertOpen();
    return this.#verdicts.decide(req, options);
  }

  /**
   * Binds a new verification to the owner. The one it replaces is retired first (its stored decision
   * never grants again: inside a visit it stands in for the binding), and loses its status record
   * once the new binding holds: no event tells it to anybody after. A failure midway leaves the old
   * binding, never its decision without it.
   */
  async bind(req: KitRequest, owner: Owner, binding: VerificationBinding): Promise<void> {
    const previous = await this.bindings.held(req, owner);
    const replaced =
      previous !== undefined && !sameIdentification(previous.identificationId, binding.identificationId)
        ? previous
        : undefined;
    if (replaced !== undefined) await this.decisions.retire(replaced.identificationId);
    await this.bindings.set(req, owner, binding);
    if (replaced !== undefined) await this.bindings.dropStatus(replaced.identificationId);
  }

  /** Unbinds the owner's verification, in bind()'s order; answers the binding that was removed. */
  async unbind(req: KitRequest, owner: Owner): Promise<VerificationBinding | undefined> {
    const binding = await this.bindings.find(req, owner);
    if (binding !== undefined) await this.decisions.retire(binding.identificationId);
    await this.bindings.remove(req, owner);
    if (binding !== undefined) await this.bindings.dropStatus(binding.identificationId);
    return binding;
  }

  /** A proven request saw its verification approved (Verdicts.approvedBy). */
  approvedBy(req: KitRequest, found: Found, visit?: VisitMarker): Promise<void> | undefined {
    return this.#verdicts.approvedBy(req, found, visit);
  }

  /** `mountPath`: where the routes answer (the QR image's URL is under it). */
  async sessionResponse(
    mountPath: string,
    binding: VerificationBinding,
    view: StatusResponseBody,
    sendLink: readonly SendLinkOffer[] = [],
  ): Promise<SessionResponseBody> {
    const token = (await sha256Base64Url(binding.verificationSessionId)).slice(0, 12);
    return {
      sessionCode: binding.sessionCode,
      deepLink: binding.deepLink,
      qrCodeUrl: `${mountPath}/qr.svg?v=${token}`,
      // The QR rides in the answer: the widget paints it without a second round trip.
      qrImage: await this.qr.dataUrl(binding.deepLink),
      sessionPageLink: binding.sessionPageLink,
      expiresAt: binding.expiresAt,
      status: view.status,
      phase: view.phase,
      sendLink,
      ...(view.pollAfterMs === undefined ? {} : { pollAfterMs: view.pollAfterMs }),
    };
  }

  /** Called once by close(): pending long-polls answer with what they know. Returns the unregister. */
  onClose(listener: () => void): () => void {
    this.#closers.add(listener);
    return () => {
      this.#closers.delete(listener);
    };
  }

  /** Misconfiguration warnings: once per kit, not once per request (`meta`: the first occurrence's). */
  warnOnce(message: string, meta?: Record<string, unknown>): void {
    if (this.#warned.has(message)) return;
    this.#warned.add(message);
    this.log.warn(message, meta);
  }

  /** Logs what an operator should know of a failure; never the key (the logger scrubs it too). */
  logFailure(error: unknown, where: string): void {
    if (isUpstreamError(error)) {
      this.log.error(`${where}: the identity verification service failed`, {
        code: error.code,
        upstreamStatus: error.upstreamStatus,
      });
    } else if (!isVerifyKitError(error)) {
      this.log.error(`${where}: unexpected error`, {
        error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      });
    } else if (error.code === ERROR_CODE.SESSION_MIDDLEWARE_MISSING) {
      this.warnOnce(error.message);
    } else if (error.code === ERROR_CODE.SESSION_STORE_ERROR) {
      const cause = error.cause instanceof Error ? error.cause.message : String(error.cause);
      this.log.error(`${where}: the session store failed`, { cause });
    }
  }

  assertOpen(): void {
    if (this.#closed) throw kitError(ERROR_CODE.KIT_CLOSED, 'verify-kit is shutting down');
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#unsubscribe();
    for (const listener of [...this.#closers]) listener();
    this.#closers.clear();
    this.watch.close();
    this.reader.clear();
    this.hints.clear();
    await this.events.close();
    await this.client.close();
    // `store` is the kit's: it closes what it opened (a connection from `url`, its subscriber), not your client.
    await this.options.store?.close();
  }
}
