import { type Identification, isApproved } from '@verify-kit/client/fetch';
import type { StatusResponseBody } from '@verify-kit/protocol';
import type { VerificationBinding } from '../bindings/binding.js';
import { isPerProcessStore } from '../bindings/binding-store.js';
import type { Bindings, Owner } from '../bindings/bindings.js';
import type { KitRequest } from '../bindings/kit-request.js';
import type { Decided, DecideOptions, Decisions, Prefetched, VisitMarker } from '../decisions/decisions.js';
import type { Found, Verdict } from '../decisions/verdict.js';
import { isUpstreamError } from '../shared/errors.js';
import { andThen, isThenable, type Maybe } from '../shared/maybe.js';
import { isGone } from '../status/status-reader.js';

/** How a status reads for people (KitCore.describe). */
export interface Describer {
  describe(
    ref: { identificationId?: string; expiresAt: string },
    identification: Identification,
  ): StatusResponseBody;
}

/** A bound verification with the status a decision acted on; its view made only when read. */
class FoundVerification implements Found {
  constructor(
    private readonly describer: Describer,
    readonly owner: Owner,
    readonly binding: VerificationBinding,
    readonly identification: Identification,
  ) {}

  get view(): StatusResponseBody {
    return this.describer.describe(this.binding, this.identification);
  }
}

/** The one decision of a gated request (KitCore.decide) and what an approval sets going (approvedBy). */
export class Verdicts {
  constructor(
    private readonly bindings: Bindings,
    private readonly decisions: Decisions,
    private readonly describer: Describer,
    private readonly now: () => number,
  ) {}

  decide(req: KitRequest, options: DecideOptions): Maybe<Verdict> {
    return andThen(this.bindings.ownerOf(req), (owner) => this.#decideFor(req, owner, options));
  }

  #decideFor(req: KitRequest, owner: Owner, options: DecideOptions): Maybe<Verdict> {
    // Inside an account's visit with a shared store, the visit's stored decision grants alone (one
    // store call: Decisions.grantStored has why that is safe); else the same call serves below.
    const early = this.decisions.prefetch(req, owner, options);
    if (early !== undefined && !isPerProcessStore(this.bindings.store)) {
      return this.#grantStoredFirst(req, owner, options, early);
    }
    return andThen(this.bindings.find(req, owner), (binding) =>
      this.#decideBound(req, owner, binding, options, early),
    );
  }

  async #grantStoredFirst(req: KitRequest, owner: Owner, options: DecideOptions, early: Prefetched) {
    if ((await this.decisions.grantStored(req, owner, early, options)) !== undefined) {
      const { identificationId } = early;
      return { kind: 'granted', reason: 'visit-stored', owner, identificationId } satisfies Verdict;
    }
    return this.#decideBound(req, owner, await this.bindings.find(req, owner), options, early);
  }

  #decideBound(
    req: KitRequest,
    owner: Owner,
    binding: VerificationBinding | undefined,
    options: DecideOptions,
    early: Prefetched | undefined,
  ): Maybe<Verdict> {
    if (binding === undefined) return { kind: 'unbound', reason: 'no-binding', owner };
    let decided: Maybe<Decided>;
    try {
      decided = this.decisions.decide(req, owner, binding.identificationId, options, early);
    } catch (error) {
      return this.#failed(owner, error);
    }
    if (!isThenable(decided)) return this.#verdictOf(req, owner, binding, decided);
    return decided.then(
      (known) => this.#verdictOf(req, owner, binding, known),
      (error: unknown) => this.#failed(owner, error),
    );
  }

  /** A decision that failed: the service's failures are verdicts; anything else is thrown. */
  #failed(owner: Owner, error: unknown): Verdict {
    // Gone at the service (its stored decision invalidated by the reader): no verification.
    if (isGone(error)) return { kind: 'unbound', reason: 'gone', owner };
    if (isUpstreamError(error)) return { kind: 'unavailable', reason: error.code, owner, error };
    throw error;
  }

  #verdictOf(req: KitRequest, owner: Owner, binding: VerificationBinding, decided: Decided): Maybe<Verdict> {
    const found = this.#found(owner, binding, decided.identification);
    if (!isApproved(decided.identification.status)) {
      const reason = decided.source === 'read' ? 'read' : 'stored-refusal';
      return { kind: 'refused', reason, owner, found };
    }
    const granted: Verdict = {
      kind: 'granted',
      reason: decided.source === 'read' ? 'read' : 'visit-stored',
      owner,
      identificationId: binding.identificationId,
      found,
    };
    const moved = this.approvedBy(req, found, decided.visit);
    return moved === undefined ? granted : moved.then(() => granted);
  }

  /** A verdict's verification; its view is worked out when asked for (a grant seldom needs it). */
  #found(owner: Owner, binding: VerificationBinding, identification: Identification): Found {
    return new FoundVerification(this.describer, owner, binding, identification);
  }

  /**
   * A proven request saw its verification approved: the session id moves (anonymous, first time),
   * then the visit this read started is entered in the session (the moved one).
   */
  approvedBy(req: KitRequest, found: Found, visit?: VisitMarker): Promise<void> | undefined {
    if (!isApproved(found.identification.status)) return undefined;
    const moved = this.bindings.approved(req, found.owner, found.binding, this.now());
    const enter = () => {
      if (visit !== undefined) this.decisions.enter(req, visit);
    };
    if (moved === undefined) {
      enter();
      return undefined;
    }
    return moved.then(enter);
  }
}
