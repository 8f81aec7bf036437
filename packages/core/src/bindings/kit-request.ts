import type { VerificationBinding } from './binding.js';
import type { StoredDecision } from './binding-store.js';

/** What the kit keeps of a visit: no status, only whose visit it is and when it was last seen. */
export interface VisitMarker {
  identificationId: string;
  accountId: string | null;
  /** Epoch ms of a gated request of the visit, refreshed at most every visitIdleMs / 10. */
  seenAt: number;
}

/**
 * What the kit keeps per browser session, whatever holds it (express-session, a sealed cookie):
 * the anonymous binding and its proof, the visit, the id the creation limits count the browser by.
 */
export interface Visitor {
  /** The anonymous binding this browser holds and proves (the binding secret); else undefined. */
  binding(): VerificationBinding | undefined;
  /** The binding this browser holds, proven or not: a new one replaces it. */
  heldBinding(): VerificationBinding | undefined;
  /** A new verification for this browser: a new session id and a new proof (fixation). */
  bind(binding: VerificationBinding): Promise<void>;
  /** Its first approval: the session moves to a new id with `approvedAt` (fixation). */
  approve(binding: VerificationBinding, approvedAt: string): Promise<void>;
  /** The binding and its proof go (kit.forget). */
  forget(): void | Promise<void>;
  visit(): VisitMarker | undefined;
  /** No-op where the browser keeps no session (accounts only): every gated request then reads. */
  setVisit(marker: VisitMarker | undefined): void;
  clientId(): string | undefined;
  setClientId(id: string): void;
  /**
   * What the service last said of this browser's verification, where the browser carries it (the
   * Fetch door's sealed cookie without a shared store); undefined elsewhere.
   */
  carriedDecision?(identificationId: string): StoredDecision | undefined;
  /** The decision a gated request acted on, for the browser to carry (where it carries one). */
  carryDecision?(decision: StoredDecision): void;
}

/**
 * One request as the engine sees it. A shell builds it from its framework's request (Express: req,
 * res and express-session); nothing under the shells reads a framework's objects.
 */
export interface KitRequest {
  /** The framework's request: what the integrator's accountOf, contactOf and beforeSend are given. */
  readonly raw: unknown;
  /** The client's address for limits, read when it arrived (normalized: an IPv6 /64; 'unknown'). */
  readonly address: string;
  /** This browser session's key for counting (a session id); undefined without one. */
  readonly sessionKey: string | undefined;
  readonly visitor: Visitor;
  /** false once the client left (its connection reset): nothing is created for it. */
  present(): Promise<boolean>;
  /**
   * Keeps work this request starts going after its answer (a background re-read), where the runtime
   * would end it with the request (Workers' `ctx.waitUntil`, Next.js's `after`); absent on servers
   * that keep running.
   */
  readonly waitUntil?: ((work: Promise<unknown>) => void) | undefined;
}
