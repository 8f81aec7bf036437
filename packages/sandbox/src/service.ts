import { randomUUID } from 'node:crypto';
import {
  type ApprovalCriterion,
  CreateSessionRequestSchema,
  DEFAULT_DURATION_MINUTES,
  IDENTIFICATION_STATUS,
  type IdentificationStatus,
  KNOWN_CRITERION_TYPES,
  type Locale,
  VerifyRequestSchema,
  type WebhookEventType,
} from '@verify-kit/client';
import { z } from 'zod';
import type { Clock } from './clock.js';
import { deepLinkOf } from './deep-link.js';
import { DocumentSubmissionSchema, type SubmittedDocument } from './documents.js';
import { ApiError, invalidRequest, notFound, SANDBOX_ERROR_CODES, sessionExpired } from './errors.js';
import { maskEmail, maskPhone } from './mask.js';
import { outboxTexts } from './messages.js';
import { newOtp, OTP_MAX_TRIES, type OtpState, otpMatches } from './otp.js';
import { type Channel, Outbox, type OutboxContent, type OutboxMessage } from './outbox.js';
import { reviewDocument } from './review.js';
import { normalizeSessionCode, randomSessionCode } from './session-code.js';
import { verifyValue } from './verify.js';
import type { WebhookDispatcher } from './webhook-dispatcher.js';

/** One verification session and its identification (they are one-to-one). */
export interface SessionRecord {
  id: string;
  identificationId: string;
  sessionCode: string;
  workflowId: string;
  locale: Locale;
  email: string | undefined;
  phoneNumber: string | undefined;
  durationMinutes: number;
  createdAt: number;
  expiresAt: number;
  criteria: ApprovalCriterion[];
  /** undefined: no OTP step (sendOTP false). */
  otp: OtpState | undefined;
  status: IdentificationStatus;
  /** A document was submitted at least once. */
  documentSubmitted: boolean;
  /** The automatic review of the latest document is running. */
  reviewing: boolean;
  document: SubmittedDocument | undefined;
  /** The expiry was noticed (events sent). */
  expiryNoticed: boolean;
  deepLink: string;
  qrCodeLink: string;
  sessionPageLink: string;
}

export interface ServiceConfig {
  workflows: readonly string[];
  reviewDelayMs: number;
  appScheme: string;
  deepLinkStyle: 'spec' | 'sdk';
  retentionMs: number;
  maxSessions: number;
}

const FINAL: readonly IdentificationStatus[] = [
  IDENTIFICATION_STATUS.APPROVED,
  IDENTIFICATION_STATUS.REJECTED,
];
const SUPPORTED_CRITERIA: readonly string[] = KNOWN_CRITERION_TYPES;

const OtpBodySchema = z.strictObject({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'code must be the 6 digits that were sent'),
});
const DecisionBodySchema = z.strictObject({
  status: z.enum([
    IDENTIFICATION_STATUS.APPROVED,
    IDENTIFICATION_STATUS.REJECTED,
    IDENTIFICATION_STATUS.RESUBMISSION_REQUIRED,
  ]),
});
const SetStatusBodySchema = z.strictObject({
  status: z.enum([
    IDENTIFICATION_STATUS.IN_AUTOMATIC_REVIEW,
    IDENTIFICATION_STATUS.IN_MANUAL_REVIEW,
    IDENTIFICATION_STATUS.APPROVED,
    IDENTIFICATION_STATUS.REJECTED,
    IDENTIFICATION_STATUS.RESUBMISSION_REQUIRED,
  ]),
});

/** The state machine of the sandbox: sessions, identifications, OTPs, reviews, expiry and eviction. */
export class SandboxService {
  private readonly sessions = new Map<string, SessionRecord>();
  private readonly byIdentification = new Map<string, SessionRecord>();
  private readonly byCode = new Map<string, SessionRecord>();
  private readonly reviewTimers = new Map<string, NodeJS.Timeout>();
  readonly outbox = new Outbox();
  private baseUrl = '';

  constructor(
    private readonly config: ServiceConfig,
    private readonly clock: Clock,
    private readonly webhooks: WebhookDispatcher | undefined,
  ) {}

  setBaseUrl(baseUrl: string): void {
    this.baseUrl = baseUrl;
  }

  get size(): number {
    return this.sessions.size;
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

    while (this.sessions.size >= this.config.maxSessions) {
      const oldest = this.sessions.values().next().value;
      if (!oldest) break;
      this.evict(oldest);
    }

    const now = this.clock.now();
    const id = randomUUID();
    const durationMinutes = input.duration ?? DEFAULT_DURATION_MINUTES;
    const sendOtp = input.sendOTP !== false;
    const rec: SessionRecord = {
      id,
      identificationId: randomUUID(),
      sessionCode: this.uniqueCode(),
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
    this.sessions.set(rec.id, rec);
    this.byIdentification.set(rec.identificationId, rec);
    this.byCode.set(rec.sessionCode, rec);

    this.sendLink(rec);
    if (rec.otp) this.sendOtp(rec, rec.otp);
    this.emit('verification_session.created', rec);
    this.emit('identification.created', rec);

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
    const rec = this.sessions.get(sessionId);
    if (!rec || this.observe(rec) === 'evicted') throw notFound('Verification session');
    if (rec.expiryNoticed) throw sessionExpired();
    return rec;
  }

  // ---- the app (simulator) side, keyed by the session id -----------------------------------

  sessionByCode(code: string) {
    const rec = this.byCode.get(normalizeSessionCode(code));
    if (!rec || this.observe(rec) === 'evicted') throw notFound('Session code');
    if (rec.expiryNoticed) throw sessionExpired();
    return { id: rec.id, identificationId: rec.identificationId };
  }

  appView(sessionId: string) {
    const rec = this.liveSession(sessionId);
    const contact = this.contactOf(rec);
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
    this.sendOtp(rec, rec.otp);
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
    this.emit('identification.submitted', rec);
    this.emit('identification.in_automatic_review', rec);

    const timer = setTimeout(() => {
      this.reviewTimers.delete(rec.id);
      if (this.sessions.get(rec.id) !== rec || !rec.reviewing) return;
      rec.reviewing = false;
      let status: IdentificationStatus;
      try {
        status = reviewDocument(rec.criteria, doc, scenario).status;
      } catch (err) {
        // A timer callback must never throw; a person reviews what the machine could not.
        console.error('[verify-kit sandbox] automatic review failed:', err);
        status = IDENTIFICATION_STATUS.IN_MANUAL_REVIEW;
      }
      if (scenario === 'processing_error') this.emit('identification.failed', rec);
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
      const timer = this.reviewTimers.get(rec.id);
      if (timer) clearTimeout(timer);
      this.reviewTimers.delete(rec.id);
    }
    this.setStatus(rec, parsed.data.status);
    return { id: rec.identificationId, status: rec.status, previousStatus };
  }

  // ---- housekeeping ---------------------------------------------------------------------------

  /** Notices expired sessions and evicts identifications past their retention. */
  sweep(): void {
    for (const rec of [...this.sessions.values()]) this.observe(rec);
  }

  close(): void {
    for (const t of this.reviewTimers.values()) clearTimeout(t);
    this.reviewTimers.clear();
  }

  private identification(identificationId: string): SessionRecord {
    const rec = this.byIdentification.get(identificationId);
    if (!rec || this.observe(rec) === 'evicted') throw notFound('Identification');
    return rec;
  }

  /** Applies the passage of time to one record. */
  private observe(rec: SessionRecord): 'live' | 'expired' | 'evicted' {
    const now = this.clock.now();
    if (now >= rec.expiresAt + this.config.retentionMs) {
      this.evict(rec);
      return 'evicted';
    }
    if (now < rec.expiresAt) return 'live';
    if (!rec.expiryNoticed) {
      rec.expiryNoticed = true;
      // The code stays mapped (a lookup answers 410) until a new session draws it or eviction.
      const personStillHadToAct =
        !rec.reviewing &&
        (!rec.documentSubmitted || rec.status === IDENTIFICATION_STATUS.RESUBMISSION_REQUIRED);
      if (personStillHadToAct) this.emit('verification_session.cancelled', rec);
    }
    return 'expired';
  }

  private evict(rec: SessionRecord): void {
    this.sessions.delete(rec.id);
    this.byIdentification.delete(rec.identificationId);
    if (this.byCode.get(rec.sessionCode) === rec) this.byCode.delete(rec.sessionCode);
    const timer = this.reviewTimers.get(rec.id);
    if (timer) clearTimeout(timer);
    this.reviewTimers.delete(rec.id);
  }

  private uniqueCode(): string {
    for (;;) {
      const code = randomSessionCode();
      const holder = this.byCode.get(code);
      if (!holder || this.observe(holder) !== 'live') return code;
    }
  }

  private submissionOpen(rec: SessionRecord): boolean {
    if (rec.reviewing) return false;
    if (rec.status === IDENTIFICATION_STATUS.RESUBMISSION_REQUIRED) return true;
    // The first document, unless the control API already set another status.
    return !rec.documentSubmitted && rec.status === IDENTIFICATION_STATUS.IN_AUTOMATIC_REVIEW;
  }

  private setStatus(rec: SessionRecord, status: IdentificationStatus): void {
    rec.status = status;
    this.emit(`identification.${status.toLowerCase()}`, rec);
    if (FINAL.includes(status)) this.emit('verification_session.completed', rec);
  }

  private contactOf(rec: SessionRecord): { channel: Channel; recipient: string; masked: string } | undefined {
    if (rec.email !== undefined)
      return { channel: 'email', recipient: rec.email, masked: maskEmail(rec.email) };
    if (rec.phoneNumber !== undefined) {
      return { channel: 'sms', recipient: rec.phoneNumber, masked: maskPhone(rec.phoneNumber) };
    }
    return undefined;
  }

  private sendLink(rec: SessionRecord): void {
    const texts = outboxTexts[rec.locale];
    this.send(rec, {
      kind: 'link',
      subject: texts.linkSubject,
      text: texts.link(rec.deepLink, rec.sessionCode, rec.durationMinutes),
      link: rec.deepLink,
    });
  }

  private sendOtp(rec: SessionRecord, otp: OtpState): void {
    const texts = outboxTexts[rec.locale];
    this.send(rec, { kind: 'otp', subject: texts.otpSubject, text: texts.otp(otp.code), otp: otp.code });
  }

  /** Puts a message to the person's contact into the outbox; nothing without a contact detail. */
  private send(rec: SessionRecord, message: OutboxContent): void {
    const contact = this.contactOf(rec);
    if (!contact) return;
    this.outbox.add({
      sentAt: new Date(this.clock.now()).toISOString(),
      channel: contact.channel,
      recipient: contact.recipient,
      verificationSessionId: rec.id,
      identificationId: rec.identificationId,
      ...message,
    });
  }

  private emit(type: WebhookEventType, rec: SessionRecord): void {
    this.webhooks?.send({
      type,
      timestamp: new Date(this.clock.now()).toISOString(),
      data: { verificationSessionId: rec.id, identificationId: rec.identificationId, status: rec.status },
    });
  }
}

function tooManyTries(): ApiError {
  return new ApiError(429, SANDBOX_ERROR_CODES.OTP_TOO_MANY_TRIES, 'Too many wrong codes; ask for a new one');
}
