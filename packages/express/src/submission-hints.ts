import type { Identification } from '@verify-kit/client';
import { BoundedMap } from './lru.js';

/** Webhook event types that prove the person submitted a document. */
export const SUBMISSION_EVENTS: readonly string[] = [
  'identification.submitted',
  'identification.in_automatic_review',
  'identification.in_manual_review',
];

/**
 * Remembers identifications a verified webhook said were submitted, for upstreams whose
 * identification record does not carry `documentSubmitted`.
 */
export class SubmissionHints {
  readonly #submitted: BoundedMap<string, true>;

  constructor(now: () => number) {
    this.#submitted = new BoundedMap(100_000, 48 * 3600_000, now);
  }

  note(identificationId: string): void {
    this.#submitted.set(identificationId, true);
  }

  /** The upstream's field when it sends one, else what webhooks told us. */
  documentSubmitted(identification: Identification, identificationId: string): boolean {
    const field = (identification as { documentSubmitted?: unknown }).documentSubmitted;
    if (typeof field === 'boolean') return field;
    return this.#submitted.has(identificationId);
  }

  clear(): void {
    this.#submitted.clear();
  }
}
