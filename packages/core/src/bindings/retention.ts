import { ERROR_CODES, VerifyKitError } from '@verify-kit/client/fetch';
import { z } from 'zod';

const DAY_MS = 86_400_000;

/** How long a binding store keeps what it holds: every binding and status record expires. */
export interface Retention {
  /**
   * An account's binding is kept this long after its verification session's end (approved or not:
   * a new verification replaces it), and an APPROVED status record this long after the later of the
   * session's end and the approval. After that the account verifies again. Default 365 days.
   */
  approvedMs?: number;
  /**
   * A status record that is not APPROVED (pending, rejected, an anonymous visitor's abandoned one) is
   * kept this long after the later of its session's end and its last change: long enough for a
   * manual review that ends after the session. Default 7 days.
   */
  pendingMs?: number;
}

export type ResolvedRetention = Required<Retention>;

export const DEFAULT_RETENTION: ResolvedRetention = { approvedMs: 365 * DAY_MS, pendingMs: 7 * DAY_MS };

const duration = z
  .number()
  .int()
  .min(60_000, 'at least one minute (60000 ms)')
  .max(10 * 366 * DAY_MS, 'at most ten years');
const RetentionSchema = z.strictObject({ approvedMs: duration.optional(), pendingMs: duration.optional() });

/** The retention a store factory was given, checked once (an INVALID_OPTIONS error names the field). */
export function resolveRetention(factory: string, input: unknown): ResolvedRetention {
  if (input === undefined) return DEFAULT_RETENTION;
  const parsed = RetentionSchema.safeParse(input);
  if (!parsed.success) {
    const details = parsed.error.issues.map((issue) => ({
      path: ['retention', ...issue.path].join('.'),
      message: issue.message,
    }));
    const first = details[0];
    throw new VerifyKitError(
      ERROR_CODES.INVALID_OPTIONS,
      `${factory}: invalid options: ${first?.path}: ${first?.message}`,
      { details },
    );
  }
  return { ...DEFAULT_RETENTION, ...parsed.data };
}

/** Epoch ms of an ISO date, or `fallback` when it is none (data from outside the process). */
function epochOf(iso: string | undefined, fallback: number): number {
  const at = iso === undefined ? Number.NaN : Date.parse(iso);
  return Number.isFinite(at) ? at : fallback;
}

/** When a store must drop an account's binding (epoch ms): the session's end plus `approvedMs`. */
export function bindingExpiresAt(
  binding: { expiresAt: string },
  retention: ResolvedRetention = DEFAULT_RETENTION,
  now = Date.now(),
): number {
  return epochOf(binding.expiresAt, now) + retention.approvedMs;
}

/**
 * When a store must drop a status record (epoch ms): `approvedMs` (APPROVED) or `pendingMs` (any
 * other status) after the later of the session's end and the record's last change.
 */
export function statusRecordExpiresAt(
  record: { status: string; observedAt: number; expiresAt: string },
  retention: ResolvedRetention = DEFAULT_RETENTION,
  now = Date.now(),
): number {
  const observedAt = Number.isFinite(record.observedAt) ? record.observedAt : now;
  const kept = record.status === 'APPROVED' ? retention.approvedMs : retention.pendingMs;
  return Math.max(epochOf(record.expiresAt, now), observedAt) + kept;
}
