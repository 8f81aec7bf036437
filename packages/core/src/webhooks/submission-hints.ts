import type { Identification } from '@verify-kit/client/fetch';
import { identificationKey } from '../shared/identification-key.js';
import { BoundedMap } from '../shared/lru.js';

/** Webhook event types that prove the person submitted a document. */
export const SUBMISSION_EVENTS: readonly string[] = [
  'identification.submitted',
  'identification.in_automatic_review',
  'identification.in_manual_review',
  // The vendor's docs: a decision awaits a reviewer's approval (phase in_review until read otherwise).
  'identification.waiting_for_status_change_approval',
];

/** Webhook event types that end the verification session before its expiresAt. */
export const SESSION_ENDED_EVENTS: readonly string[] = ['verification_session.cancelled'];

/**
 * Remembers what verified webhooks said about an identification that its record may not carry:
 * that a document was submitted (unless the upstream sends `documentSubmitted`), and that its
 * session was cancelled early.
 */
export class SubmissionHints {
  readonly #submitted: BoundedMap<string, true>;
  readonly #ended: BoundedMap<string, true>;

  constructor(now: () => number) {
    this.#submitted = new BoundedMap(100_000, 48 * 3600_000, now);
    this.#ended = new BoundedMap(100_000, 48 * 3600_000, now);
  }

  note(identificationId: string): void {
    this.#submitted.set(identificationKey(identificationId), true);
  }

  noteSessionEnded(identificationId: string): void {
    this.#ended.set(identificationKey(identificationId), true);
  }

  sessionEnded(identificationId: string): boolean {
    return this.#ended.has(identificationKey(identificationId));
  }

  /** The upstream's field when it sends one, else what webhooks told us. */
  documentSubmitted(identification: Identification, identificationId: string): boolean {
    const field = (identification as { documentSubmitted?: unknown }).documentSubmitted;
    if (typeof field === 'boolean') return field;
    return this.#submitted.has(identificationKey(identificationId));
  }

  clear(): void {
    this.#submitted.clear();
    this.#ended.clear();
  }
}
