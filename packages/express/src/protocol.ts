/*
 * The widget <-> kit protocol (DESIGN.md): JSON over same-origin HTTP, paths relative to the mount.
 * Type-only for the widget: `import type { … } from '@verify-kit/express/protocol'`.
 */

/** The kit's view of an identification, for people. */
export const PHASE = {
  AWAITING_USER: 'awaiting_user',
  IN_REVIEW: 'in_review',
  APPROVED: 'approved',
  REJECTED: 'rejected',
  RESUBMISSION_REQUIRED: 'resubmission_required',
  EXPIRED: 'expired',
} as const;
export type Phase = (typeof PHASE)[keyof typeof PHASE];
export const PHASES = Object.values(PHASE) as readonly Phase[];

/** Phases after which nothing changes without a new session. */
export const FINAL_PHASES: readonly Phase[] = [PHASE.APPROVED, PHASE.REJECTED, PHASE.EXPIRED];

/** 201 of `POST /session` (body `{ restart?: boolean }`). */
export interface SessionResponseBody {
  sessionCode: string;
  deepLink: string;
  /** The kit's own `/qr.svg` under the mount, never the upstream's. */
  qrCodeUrl: string;
  sessionPageLink: string;
  /** ISO 8601. */
  expiresAt: string;
  status: string;
  phase: Phase;
}

/** 200 of `GET /status[?wait=<s>&since=<phase>]`. */
export interface StatusResponseBody {
  status: string;
  phase: Phase;
  expiresAt: string;
}

/** Every error of the kit: `{ error: { code, message, details? } }`. */
export interface ErrorResponseBody {
  error: { code: string; message: string; details?: unknown[] };
}

/** Upper bound of `wait` on `GET /status`, in seconds. */
export const MAX_WAIT_SECONDS = 30;
