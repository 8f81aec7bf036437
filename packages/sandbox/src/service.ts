import { randomUUID } from 'node:crypto';
import {
  CreateSessionRequestSchema,
  DEFAULT_DURATION_MINUTES,
  IDENTIFICATION_STATUS,
  type IdentificationStatus,
  KNOWN_CRITERION_TYPES,
  VerifyRequestSchema,
} from '@verify-kit/client';
import type { Clock } from './clock.js';
import { DecisionBodySchema, OtpBodySchema, SetStatusBodySchema } from './control-bodies.js';
import { deepLinkOf } from './deep-link.js';
import { DocumentSubmissionSchema } from './documents.js';
import { ApiError, invalidRequest, notFound, SANDBOX_ERROR_CODES, sessionExpired } from './errors.js';
import { contactOf, Notifier } from './notifier.js';
import { newOtp, OTP_MAX_TRIES, otpMatches } from './otp.js';
import type { Outbox, OutboxMessage } from './outbox.js';
import { reviewDocument } from './review.js';
import type { ServiceConfig, SessionRecord } from './session-record.js';
import { SessionStore } from './session-store.js';
import { verifyValue } from './verify.js';
import type { WebhookDispatcher } from './webhook-dispatcher.js';

export type { DecisionStatus, OverrideStatus } from './control-bodies.js';
export type { ServiceConfig, SessionRecord } from './session-record.js';

const FINAL: readonly IdentificationStatus[] = [
  IDENTIFICATION_STATUS.APPROVED,
  IDENTIFICATION_STATUS.REJECTED,
];
const SUPPORTED_CRITERIA: readonly string[] = KNOWN_CRITERION_TYPES;

/** The state machine of the sandbox: sessions, identifications, OTPs, reviews, expiry and eviction. */
export class SandboxService {
  private readonly reviewTimers = new Map<string, NodeJS.Timeout>();
  private readonly notifier: Notifier;
  private readonly store: SessionStore;
  readonly outbox: Outbox;
  private baseUrl = '';

  constructor(
    private readonly config: ServiceConfig,
    private readonly clock: Clock,
    webhooks: WebhookDispatcher | undefined,
  ) {
    this.notifier = new Notifier(clock, webhooks);
    this.outbox = this.notifier.outbox;
    this.store = new SessionStore(clock, config.retentionMs, {
      expired: (rec) => {
        const personStillHadToAct =
          !rec.reviewing &&
          (!rec.documentSubmitted || rec.status === IDENTIFICATION_STATUS.RESUBMISSION_REQUIRED);
        if (personStillHadToAct) this.notifier.emit('verification_session.cancelled', rec);
      },
      evicted: (rec) => this.cancelReview(rec),
    });
  }

  setBaseUrl(baseUrl: string): void {
    this.baseUrl = baseUrl;
  }

  get size(): number {
    return this.store.size;
  }

  // ---- /api/v1 -------------------------------------------------------------------------------

  createSession(body: unknown) {
    const parsed = CreateSessionRequestSchema.safeParse(body);
    if (!parsed.success) throw invalidRequest(parsed.error);
    const input = parsed.data;
    if (!this.config.workflows.includes(input.workflowId)) {
      throw new ApiError(
        400,
        SANDBOX_ERROR_CODES.UNKNOWN_WORKFLOW,
        `Unknown workflowId '${input.workflowId}'`,
        [{ path: 'workflowId', message: `known workflows: ${this.config.workflows.join(', ')}` }],
      );
    }
    const unsupported = (input.approvalCriteria ?? []).flatMap((c, i) =>
      SUPPORTED_CRITERIA.includes(c.type)
        ? []
        : [{ path: `approvalCriteria.${i}.type`, message: `unsupported criterion type '${c.type}'` }],
    );
    if (unsupported.length > 0) {
      throw new ApiError(
        400,
        SANDBOX_ERROR_CODES.UNSUPPORTED_CRITERION_TYPE,
        `Unsupported criterion type; supported: ${SUPPORTED_CRITERIA.join(', ')}`,
        unsupported,
      );
    }

    this.store.makeRoom(this.config.maxSessions);

    const now = this.clock.now();
    const id = randomUUID();
    const durationMinutes = input.duration ?? DEFAULT_DURATION_MINUTES;
    const sendOtp = input.sendOTP !== false;
    const rec: SessionRecord = {
      id,
      identificationId: randomUUID(),
      sessionCode: this.store.uniqueCode(),
      workflowId: input.workflowId,
      locale: input.locale,
      email: input.email,
      phoneNumber: input.phoneNumber,
      durationMinutes,
      createdAt: now,
      expiresAt: now + durationMinutes * 60_000,
      criteria: input.approvalCriteria ?? [],
      otp: sendOtp ? newOtp(now) : undefined,
      status: IDENTIFICATION_STATUS.IN_AUTOMATIC_REVIEW,
      documentSubmitted: false,
      reviewing: false,
      document: undefined,
      expiryNoticed: false,
      deepLink: deepLinkOf(this.config, this.baseUrl, id),
      qrCodeLink: `${this.baseUrl}/api/v1/verification-sessions/${id}/qr-code`,
      sessionPageLink: `${this.baseUrl}/public/verification-sessions/${id}`,
    };
    this.store.add(rec);

    this.notifier.sendLink(rec);
    if (rec.otp) this.notifier.sendOtp(rec, rec.otp);
    this.notifier.emit('verification_session.created', rec);
    this.notifier.emit('identification.created', rec);

    return {
      id: rec.id,
      identificationId: rec.identificationId,
      sessionCode: rec.sessionCode,
      deepLink: rec.deepLink,
      qrCodeLink: rec.qrCodeLink,
      sessionPageLink: rec.sessionPageLink,
      expiresAt: new Date(rec.expiresAt).toISOString(),
    };
  }

  getIdentification(identificationId: string) {
    const rec = this.identification(identificationId);
    return {
      id: rec.identificationId,
      status: rec.status,
      verificationSessionId: rec.id,
      documentSubmitted: rec.documentSubmitted,
      expiresAt: new Date(rec.expiresAt).toISOString(),
    };
  }

  verify(identificationId: string, body: unknown): { verified: boolean } {
    const rec = this.identification(identificationId);
    const parsed = VerifyRequestSchema.safeParse(body);
    if (!parsed.success) throw invalidRequest(parsed.error);
    return { verified: verifyValue(rec, parsed.data) };
  }

  /** The session behind the QR image and the public page: 404 unknown, 410 expired. */
  liveSession(sessionId: string): SessionRecord {
    const rec = this.store.session(sessionId);
    if (!rec) throw notFound('Verification session');
    if (rec.expiryNoticed) throw sessionExpired();
    return rec;
  }

  // ---- the app (simulator) side, keyed by the session id -----------------------------------

  sessionByCode(code: string) {
    const rec = this.store.code(code);
    if (!rec) throw notFound('Session code');
    if (rec.expiryNoticed) throw sessionExpired();
    return { id: rec.id, identificationId: rec.identificationId };
  }

  appView(sessionId: string) {
    const rec = this.liveSession(sessionId);
    const contact = contactOf(rec);
    const needsOtp = rec.otp !== undefined && !rec.otp.confirmed;
    return {
      id: rec.id,
      identificationId: rec.identificationId,
      sessionCode: rec.sessionCode,
      workflowId: rec.workflowId,
      locale: rec.locale,
      needsOtp,
      otp: rec.otp
        ? {
            confirmed: rec.otp.confirmed,
            expiresAt: new Date(rec.otp.expiresAt).toISOString(),
            triesLeft: Math.max(0, OTP_MAX_TRIES - rec.otp.failures),
          }
        : null,
      contact: contact ? { channel: contact.channel, masked: contact.masked } : null,
      maskedContact: contact?.masked ?? null,
      status: rec.status,
      documentSubmitted: rec.documentSubmitted,
      inReview: rec.reviewing,
      canSubmit: !needsOtp && this.submissionOpen(rec),
      expiresAt: new Date(rec.expiresAt).toISOString(),
    };
  }

  /** What the person's phone or mailbox received for this session. */
  sessionMessages(sessionId: string): OutboxMessage[] {
    const rec = this.liveSession(sessionId);
    return this.outbox.list({ verificationSessionId: rec.id });
  }

  confirmOtp(sessionId: string, body: unknown): void {
    const rec = this.liveSession(sessionId);
    const parsed = OtpBodySchema.safeParse(body);
    if (!parsed.success) throw invalidRequest(parsed.error);
    const otp = rec.otp;
    if (!otp) throw new ApiError(409, SANDBOX_ERROR_CODES.OTP_NOT_REQUIRED, 'This session has no OTP step');
    if (otp.confirmed) return;
    if (otp.failures >= OTP_MAX_TRIES) throw tooManyTries();
    if (this.clock.now() >= otp.expiresAt) {
      throw new ApiError(400, SANDBOX_ERROR_CODES.OTP_EXPIRED, 'The code has expired; ask for a new one');
    }
    if (otpMatches(otp, parsed.data.code)) {
      otp.confirmed = true;
      return;
    }
    otp.failures += 1;
    const triesLeft = OTP_MAX_TRIES - otp.failures;
    throw new ApiError(
      400,
      SANDBOX_ERROR_CODES.OTP_INVALID,
      triesLeft > 0 ? `Wrong code; ${triesLeft} tries left` : 'Wrong code; no tries left',
      [{ path: 'code', message: 'wrong code', triesLeft }],
    );
  }

  /** A new OTP (new code, tries reset), "sent" again. */
  resendOtp(sessionId: string): void {
    const rec = this.liveSession(sessionId);
    if (!rec.otp)
      throw new ApiError(409, SANDBOX_ERROR_CODES.OTP_NOT_REQUIRED, 'This session has no OTP step');
    if (rec.otp.confirmed) {
      throw new ApiError(409, SANDBOX_ERROR_CODES.OTP_NOT_REQUIRED, 'The code was already confirmed');
    }
    rec.otp = newOtp(this.clock.now());
    this.notifier.sendOtp(rec, rec.otp);
  }

  submitDocument(sessionId: string, body: unknown): { status: IdentificationStatus } {
    const rec = this.liveSession(sessionId);
    if (rec.otp && !rec.otp.confirmed) {
      throw new ApiError(409, SANDBOX_ERROR_CODES.OTP_REQUIRED, 'Confirm the one-time password first');
    }
    if (!this.submissionOpen(rec)) {
      throw new ApiError(
        409,
        SANDBOX_ERROR_CODES.SUBMISSION_NOT_ALLOWED,
        rec.reviewing
          ? 'The document is being reviewed'
          : `A document cannot be submitted while the identification is ${rec.status}`,
      );
    }
    const parsed = DocumentSubmissionSchema.safeParse(body);
    if (!parsed.success) throw invalidRequest(parsed.error, 'document');
    const { scenario = 'approve', ...doc } = parsed.data;
    rec.document = doc;
    rec.documentSubmitted = true;
    rec.reviewing = true;
    rec.status = IDENTIFICATION_STATUS.IN_AUTOMATIC_REVIEW;
    this.notifier.emit('identification.submitted', rec);
    this.notifier.emit('identification.in_automatic_review', rec);

    const timer = setTimeout(() => {
      this.reviewTimers.delete(rec.id);
      if (!this.store.holds(rec) || !rec.reviewing) return;
      rec.reviewing = false;
      let status: IdentificationStatus;
      try {
        status = reviewDocument(rec.criteria, doc, scenario).status;
      } catch (err) {
        // A timer callback must never throw; a person reviews what the machine could not.
        console.error('[verify-kit sandbox] automatic review failed:', err);
        status = IDENTIFICATION_STATUS.IN_MANUAL_REVIEW;
      }
      if (scenario === 'processing_error') this.notifier.emit('identification.failed', rec);
      this.setStatus(rec, status);
    }, this.config.reviewDelayMs);
    this.reviewTimers.set(rec.id, timer);
    return { status: rec.status };
  }

  // ---- the reviewer ---------------------------------------------------------------------------

  decide(identificationId: string, body: unknown) {
    const rec = this.identification(identificationId);
    const parsed = DecisionBodySchema.safeParse(body);
    if (!parsed.success) throw invalidRequest(parsed.error);
    if (rec.status !== IDENTIFICATION_STATUS.IN_MANUAL_REVIEW || rec.reviewing) {
      throw new ApiError(
        409,
        SANDBOX_ERROR_CODES.DECISION_NOT_ALLOWED,
        `A decision is only taken on IN_MANUAL_REVIEW; the identification is ${rec.status}`,
      );
    }
    this.setStatus(rec, parsed.data.status);
    return { id: rec.identificationId, status: rec.status };
  }

  /**
   * The tester's override: any of the five statuses from any state (e.g. a reviewer revoking an
   * approval), even after expiry. A running automatic review is cancelled so it cannot overwrite
   * the status later. The event is sent like any other transition.
   */
  setStatusOverride(identificationId: string, body: unknown) {
    const rec = this.identification(identificationId);
    const parsed = SetStatusBodySchema.safeParse(body);
    if (!parsed.success) throw invalidRequest(parsed.error);
    const previousStatus = rec.status;
    if (rec.reviewing) {
      rec.reviewing = false;
      this.cancelReview(rec);
    }
    this.setStatus(rec, parsed.data.status);
    return { id: rec.identificationId, status: rec.status, previousStatus };
  }

  // ---- housekeeping ---------------------------------------------------------------------------

  /** Notices expired sessions and evicts identifications past their retention. */
  sweep(): void {
    this.store.sweep();
  }

  close(): void {
    for (const t of this.reviewTimers.values()) clearTimeout(t);
    this.reviewTimers.clear();
  }

  private identification(identificationId: string): SessionRecord {
    const rec = this.store.identification(identificationId);
    if (!rec) throw notFound('Identification');
    return rec;
  }

  /** A running automatic review stops: its outcome never lands. */
  private cancelReview(rec: SessionRecord): void {
    const timer = this.reviewTimers.get(rec.id);
    if (timer) clearTimeout(timer);
    this.reviewTimers.delete(rec.id);
  }

  private submissionOpen(rec: SessionRecord): boolean {
    if (rec.reviewing) return false;
    if (rec.status === IDENTIFICATION_STATUS.RESUBMISSION_REQUIRED) return true;
    // The first document, unless the control API already set another status.
    return !rec.documentSubmitted && rec.status === IDENTIFICATION_STATUS.IN_AUTOMATIC_REVIEW;
  }

  private setStatus(rec: SessionRecord, status: IdentificationStatus): void {
    rec.status = status;
    this.notifier.emit(`identification.${status.toLowerCase()}`, rec);
    if (FINAL.includes(status)) this.notifier.emit('verification_session.completed', rec);
  }
}

function tooManyTries(): ApiError {
  return new ApiError(429, SANDBOX_ERROR_CODES.OTP_TOO_MANY_TRIES, 'Too many wrong codes; ask for a new one');
}
