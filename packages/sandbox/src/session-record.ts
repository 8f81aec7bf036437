import type { ApprovalCriterion, IdentificationStatus, Locale } from '@verify-kit/client';
import type { SubmittedDocument } from './documents.js';
import type { OtpState } from './otp.js';

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
