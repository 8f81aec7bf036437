import type { Identification } from '@verify-kit/client/fetch';
import type { StoredDecision } from '../bindings/binding-store.js';
import type { VisitMarker } from '../bindings/kit-request.js';
import type { Maybe } from '../shared/maybe.js';

// The words of decisions.ts: its settings, what it answers, and maxAgeMs's one meaning per freshness.

/** 'visit' (default): a read per visit, the stored decision inside it. 'every-request': a read each time. */
export type Freshness = 'visit' | 'every-request';

/** How a gated answer was made: `read` from the service just now, `stored` from the stored decision. */
export type DecisionSource = 'read' | 'stored';

export interface DecisionSettings {
  freshness: Freshness;
  visitIdleMs: number;
  maxAgeMs: number;
  staleIfErrorMs: number;
  /** How long a verified refusal holds against reads that say APPROVED (the service's reads may lag its webhooks). */
  refusalSettleMs: number;
}

export interface Decided {
  identification: Identification;
  source: DecisionSource;
  /** A visit starts with this read: enter() it once the session is final (after an approval's move). */
  visit?: VisitMarker;
}

/** A stored decision asked for before the binding was known (Decisions.prefetch). */
export interface Prefetched {
  identificationId: string;
  decision: Maybe<StoredDecision | undefined>;
}

export interface DecideOptions {
  freshness?: Freshness;
  /** maxAgeFor() says what it means in each freshness. */
  maxAgeMs?: number;
}

/**
 * `maxAgeMs` (the kit's option, a gate's, statusOf's), one meaning per freshness, here alone:
 * - 'visit': how old the visit's stored decision may grow before it is re-read in the background
 *   while it is served (default the kit's maxAgeMs; at most staleIfErrorMs);
 * - 'every-request': how old a read may be and still be reused instead of a new one (default 0).
 */
export function maxAgeFor(freshness: Freshness, given: number | undefined, kit: DecisionSettings): number {
  return given ?? (freshness === 'visit' ? kit.maxAgeMs : 0);
}
