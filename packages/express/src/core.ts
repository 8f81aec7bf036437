import { createHash } from 'node:crypto';
import {
  CreateSessionRequestSchema,
  createClient,
  type Identification,
  isApproved,
  isVerifyKitError,
  type VerifyClient,
} from '@verify-kit/client';
import type { Request, Response } from 'express';
import { readBinding, type VerificationBinding } from './binding.js';
import { isUpstreamError, KIT_ERROR_CODES, kitError, sendError } from './errors.js';
import { createLog, type Log } from './log.js';
import type { ResolvedOptions, SessionOptions } from './options.js';
import { phaseOf } from './phase.js';
import type { SessionResponseBody, StatusResponseBody } from './protocol.js';
import { SessionCreations } from './session-creation.js';
import { SessionRotator } from './session-rotation.js';
import { createMemoryStatusBus, type StatusBus, type StatusHint } from './status-bus.js';
import { StatusReader } from './status-reader.js';
import { StatusWatch } from './status-watch.js';
import { SESSION_ENDED_EVENTS, SubmissionHints } from './submission-hints.js';

/** Everything the routes and the gate share; one per createVerifyKit call. */
export class KitCore {
  readonly log: Log;
  readonly client: VerifyClient;
  readonly reader: StatusReader;
  readonly hints: SubmissionHints;
  readonly watch: StatusWatch;
  readonly rotator = new SessionRotator();
  readonly creations = new SessionCreations(this.rotator);
  readonly bus: StatusBus;
  readonly #unsubscribe: () => void;
  #closed = false;
  readonly #closers = new Set<() => void>();
  readonly #warned = new Set<string>();

  constructor(readonly options: ResolvedOptions) {
    this.log = createLog(options.logger, options.apiKey);
    this.client = createClient({
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      ...(options.retries === undefined ? {} : { retries: options.retries }),
      ...(options.dispatcher === undefined ? {} : { dispatcher: options.dispatcher }),
    });
    this.reader = new StatusReader(this.client, options.now);
    this.hints = new SubmissionHints(options.now);
    this.watch = new StatusWatch(this.reader, options.pollIntervalMs);
    this.bus = options.statusBus ?? createMemoryStatusBus();
    this.#unsubscribe = this.bus.subscribe((identificationId, hint) =>
      this.applyHint(identificationId, hint),
    );
  }

  get closed(): boolean {
    return this.#closed;
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
    this.reader.invalidate(identificationId);
    this.watch.poke(identificationId);
  }

  describe(binding: VerificationBinding, identification: Identification): StatusResponseBody {
    return {
      status: identification.status,
      phase: phaseOf({
        status: identification.status,
        expiresAt: binding.expiresAt,
        documentSubmitted: this.hints.documentSubmitted(identification, binding.identificationId),
        sessionEnded: this.hints.sessionEnded(binding.identificationId),
        now: this.now(),
      }),
      expiresAt: binding.expiresAt,
    };
  }

  /**
   * The first time a session is seen approved its id is regenerated, keeping its data (fixation).
   * Not when the response is already on its way (its new cookie could not be sent).
   */
  async observeApproval(
    req: Request,
    binding: VerificationBinding,
    identification: Identification,
  ): Promise<void> {
    if (!isApproved(identification.status) || binding.approvedAt !== undefined) return;
    if (req.res?.headersSent) return;
    const approvedAt = new Date(this.now()).toISOString();
    await this.rotator.rotate(req, (session) => {
      if (session.verifyKit?.identificationId === binding.identificationId) {
        session.verifyKit = { ...session.verifyKit, approvedAt };
      }
    });
  }

  /** The status of this browser session's verification (undefined: none bound). */
  async statusOf(
    req: Request,
    maxAgeMs = 0,
  ): Promise<
    { binding: VerificationBinding; identification: Identification; view: StatusResponseBody } | undefined
  > {
    const binding = readBinding(req);
    if (binding === undefined) return undefined;
    const identification = await this.reader.read(binding.identificationId, { maxAgeMs });
    return { binding, identification, view: this.describe(binding, identification) };
  }

  /** The creation body for this request: workflowId, defaults, then sessionOptions(req). */
  async createBody(req: Request) {
    const { sessionOptions, workflowId } = this.options;
    let extra: SessionOptions = {};
    if (sessionOptions !== undefined) {
      try {
        extra = (await sessionOptions(req)) ?? {};
      } catch (error) {
        // An integrator may refuse on purpose: a VerifyKitError with a 4xx status goes out as it is.
        if (
          isVerifyKitError(error) &&
          error.status !== undefined &&
          error.status >= 400 &&
          error.status < 500
        ) {
          throw error;
        }
        this.log.error('sessionOptions(req) threw', {
          error: error instanceof Error ? error.message : String(error),
        });
        throw kitError(
          KIT_ERROR_CODES.SESSION_OPTIONS_FAILED,
          'the server could not prepare the verification',
        );
      }
    }
    const body =
      sessionOptions === undefined
        ? { workflowId, locale: 'en', sendOTP: false }
        : { workflowId, locale: 'en', ...(typeof extra === 'object' ? extra : { invalid: extra }) };
    const parsed = CreateSessionRequestSchema.safeParse(body);
    if (!parsed.success) {
      this.log.warn('sessionOptions(req) returned a body the service would refuse: fix sessionOptions', {
        issues: parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
      });
      throw kitError(
        KIT_ERROR_CODES.SESSION_OPTIONS_INVALID,
        'the server’s verification settings are invalid',
      );
    }
    return parsed.data;
  }

  sessionResponse(req: Request, binding: VerificationBinding, view: StatusResponseBody): SessionResponseBody {
    const token = createHash('sha256').update(binding.verificationSessionId).digest('base64url').slice(0, 12);
    return {
      sessionCode: binding.sessionCode,
      deepLink: binding.deepLink,
      qrCodeUrl: `${req.baseUrl}/qr.svg?v=${token}`,
      sessionPageLink: binding.sessionPageLink,
      expiresAt: binding.expiresAt,
      status: view.status,
      phase: view.phase,
      sendLink: [],
    };
  }

  /** Called once by close(): pending long-polls answer with what they know. Returns the unregister. */
  onClose(listener: () => void): () => void {
    this.#closers.add(listener);
    return () => {
      this.#closers.delete(listener);
    };
  }

  /** Misconfiguration warnings: once per kit, not once per request. */
  warnOnce(message: string): void {
    if (this.#warned.has(message)) return;
    this.#warned.add(message);
    this.log.warn(message);
  }

  /** Logs what the operator needs (never the key, never a body) and answers with the error. */
  fail(res: Response, error: unknown, where: string, statusOverride?: number): void {
    this.logFailure(error, where);
    sendError(res, error, statusOverride);
  }

  /** Logs what an operator should know of a failure; never the key (the logger scrubs it too). */
  logFailure(error: unknown, where: string): void {
    if (isUpstreamError(error)) {
      this.log.error(`${where}: the identity verification service failed`, {
        code: error.code,
        status: error.status,
      });
    } else if (!isVerifyKitError(error)) {
      this.log.error(`${where}: unexpected error`, {
        error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      });
    } else if (error.code === KIT_ERROR_CODES.SESSION_MIDDLEWARE_MISSING) {
      this.warnOnce(error.message);
    } else if (error.code === KIT_ERROR_CODES.SESSION_STORE_ERROR) {
      const cause = error.cause instanceof Error ? error.cause.message : String(error.cause);
      this.log.error(`${where}: the session store failed`, { cause });
    }
  }

  assertOpen(): void {
    if (this.#closed) throw kitError(KIT_ERROR_CODES.KIT_CLOSED, 'verify-kit is shutting down');
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
    await this.client.close();
  }
}
