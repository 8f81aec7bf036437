import { isApproved } from '@verify-kit/client/fetch';
import type { StoredDecision } from '../bindings/binding-store.js';
import type { Bindings, Owner } from '../bindings/bindings.js';
import type { KitRequest, VisitMarker } from '../bindings/kit-request.js';
import { browserCause, KIT_READ } from '../limits/read-budget.js';
import { identificationKey } from '../shared/identification-key.js';
import type { Log } from '../shared/log.js';
import { BoundedMap } from '../shared/lru.js';
import { andThen, isThenable, type Maybe } from '../shared/maybe.js';
import { withinMs } from '../shared/with-timeout.js';
import { isDefinitive, type ReadOptions, type StatusReader } from '../status/status-reader.js';
import {
  type Decided,
  type DecideOptions,
  type DecisionSettings,
  type DecisionSource,
  type Freshness,
  maxAgeFor,
  type Prefetched,
} from './decision-settings.js';
import { DecisionStore } from './decision-store.js';
import { newerDecision, verifiedRefusal, vouches } from './stored-decision.js';

export type { Decided, DecideOptions, DecisionSettings, DecisionSource, Freshness, Prefetched, VisitMarker };
export { maxAgeFor };

/**
 * The visit, the stored decision and revocation (packages/express/README.md, "Freshness and
 * outages"). The spec's rule is to re-read the status each time the user opens the application: the
 * first gated request of a visit reads the service; inside the visit the gate answers from the last
 * decision the kit read or received signed, kept in the store's decisions under the identification so a
 * webhook on any instance reaches it.
 */

/** A background re-read of one identification is tried at most this often (an outage is not hammered). */
const REFRESH_RETRY_MS = 1000;
/**
 * A decision only the browser's cookie carries, older than maxAgeMs, is re-read before the answer
 * (no other instance's re-read would reach this cookie), for at most this long: a slow or failing
 * service then serves it as the stale grant it is, and the read goes on to update this process.
 */
const INLINE_REFRESH_WAIT_MS = 1000;
export class Decisions extends DecisionStore {
  // Background re-reads tried lately, per identification.
  readonly #refreshing: BoundedMap<string, true>;

  constructor(
    private readonly reader: StatusReader,
    bindings: Bindings,
    settings: DecisionSettings,
    private readonly log: Log,
    now: () => number,
  ) {
    super(bindings, settings, now);
    this.#refreshing = new BoundedMap(100_000, REFRESH_RETRY_MS, now);
  }

  /**
   * The status this request acts on. A new visit, or a stored decision that does not grant, is read
   * from the service now (a failure throws: fail closed); inside a visit a stored APPROVED younger
   * than staleIfErrorMs is answered from the store (re-read in the background once older than
   * maxAgeMs). A read that fails inside a visit may answer a stored refusal, never a grant.
   */
  decide(
    req: KitRequest,
    owner: Owner,
    identificationId: string,
    options: DecideOptions = {},
    prefetched?: Prefetched,
  ): Maybe<Decided> {
    const freshness = options.freshness ?? this.settings.freshness;
    if (freshness === 'every-request') {
      const reuseWithinMs = maxAgeFor(freshness, options.maxAgeMs, this.settings);
      return this.reader
        .read(identificationId, { reuseWithinMs, ...this.#budget(req, owner, identificationId) })
        .then((identification) => ({ identification, source: 'read' }) satisfies Decided);
    }
    const now = this.now();
    const marker = req.visitor.visit();
    if (!this.#inVisit(marker, owner, identificationId, now)) {
      // An ended visit's marker goes now: a session moved on approval must not carry it.
      if (marker !== undefined) req.visitor.setVisit(undefined);
      const visit = { identificationId, accountId: owner.accountId ?? null, seenAt: now };
      return this.reader
        .read(identificationId, this.#budget(req, owner, identificationId))
        .then((identification) => {
          carry(req, identification.status, now);
          return {
            identification,
            source: 'read',
            ...(isApproved(identification.status) ? { visit } : {}),
          } satisfies Decided;
        });
    }
    this.#touch(req, marker, now);
    const stored =
      prefetched?.identificationId === identificationId
        ? prefetched.decision
        : this.stored(identificationKey(identificationId));
    // With a store of this process the stored APPROVED grants here, with no step of waiting. Where
    // the browser carries a decision (no shared store), the newer of the two stands.
    return andThen(stored, (found) => {
      const carried = req.visitor.carriedDecision?.(identificationId);
      const newest = newerDecision(found, carried);
      if (newest !== undefined && newest !== carried) req.visitor.carryDecision?.(newest);
      if (!this.#grantable(newest, now)) {
        return this.#readInVisit(
          req,
          identificationId,
          newest,
          now,
          this.#budget(req, owner, identificationId),
        );
      }
      if (newest === found || now - newest.at < this.#maxAgeOf(newest, options)) {
        return this.#storedGrant(req, identificationId, newest, now, options);
      }
      return this.#refreshCarried(req, identificationId, newest, now);
    });
  }

  /** Inside a visit without a stored grant: a read; a stored refusal stands while the service is down. */
  async #readInVisit(
    req: KitRequest,
    identificationId: string,
    stored: StoredDecision | undefined,
    now: number,
    budget: Pick<ReadOptions, 'cause' | 'whenRefused'>,
  ): Promise<Decided> {
    try {
      const identification = await this.reader.read(identificationId, budget);
      // A refusal the browser carries holds against reads that lag it, as a stored one does (record()).
      const refusal = verifiedRefusal(stored);
      if (
        isApproved(identification.status) &&
        refusal !== undefined &&
        now < refusal.at + this.settings.refusalSettleMs
      ) {
        return { identification: { ...identification, status: refusal.status }, source: 'stored' };
      }
      carry(req, identification.status, now);
      return { identification, source: 'read' };
    } catch (error) {
      // The service is down and the store knows a refusal: refuse (403), as the service last said.
      // A definitive answer (isDefinitive) is not an outage: nothing stored stands in for it.
      if (!isDefinitive(error) && this.#usable(stored, now)) {
        return { identification: { id: identificationId, status: stored.status }, source: 'stored' };
      }
      throw error;
    }
  }

  /**
   * A grant only the browser's cookie carries, older than maxAgeMs: no instance's background re-read
   * would reach this cookie, so it is re-read now (INLINE_REFRESH_WAIT_MS at most; tried once a
   * second per identification here). A read that fails or takes longer serves the stale grant, as a
   * background re-read would; one that answers decides, and the cookie carries it.
   */
  async #refreshCarried(
    req: KitRequest,
    identificationId: string,
    stale: StoredDecision & { status: string },
    now: number,
  ): Promise<Decided> {
    const staleGrant = this.#storedGrant(req, identificationId, stale, now, {}, false);
    const key = identificationKey(identificationId);
    if (this.#refreshing.has(key)) return staleGrant;
    this.#refreshing.set(key, true);
    const read = this.reader.read(identificationId, { cause: KIT_READ });
    // A read that outlasts the wait goes on to update this process (Workers: within waitUntil).
    req.waitUntil?.(read.catch(() => undefined));
    let identification: Awaited<typeof read> | undefined;
    try {
      identification = await withinMs(read, INLINE_REFRESH_WAIT_MS);
    } catch (error) {
      if (isDefinitive(error)) throw error;
      this.log.debug('a carried decision could not be re-read; it is served until staleIfErrorMs', {
        error: error instanceof Error ? error.message : String(error),
      });
    }
    if (identification === undefined) return staleGrant;
    carry(req, identification.status, now);
    return { identification, source: 'read' };
  }

  /**
   * Inside an account's visit, the prefetched decision of the identification the visit marker names
   * grants without the account's binding (one store call: BENCHMARKS.md, "Where the time goes inside
   * a visit"). Safe because every way the binding stops naming that identification retires its
   * decision first (retire(): a new verification, forget, on any instance), and a decision older
   * than maxAgeMs is not used here: the full path (binding, then decide()) re-reads it, so a binding
   * gone otherwise (expired, removed from the store by hand) grants for at most maxAgeMs more.
   * undefined: decide() with the binding does the whole work (the same prefetched call, not again).
   */
  async grantStored(req: KitRequest, owner: Owner, prefetched: Prefetched, options: DecideOptions = {}) {
    if (owner.accountId === undefined || (options.freshness ?? this.settings.freshness) !== 'visit') {
      return undefined;
    }
    const marker = req.visitor.visit();
    const { identificationId } = prefetched;
    if (!this.#inVisit(marker, owner, identificationId, this.now())) return undefined;
    let stored: StoredDecision | undefined;
    try {
      stored = await prefetched.decision;
    } catch {
      return undefined; // decide() awaits the same call again and fails closed
    }
    const now = this.now();
    if (!this.#grantable(stored, now)) return undefined;
    if (now - stored.at >= this.#maxAgeOf(stored, options)) return undefined;
    this.#touch(req, marker, now);
    return this.#storedGrant(req, identificationId, stored, now, options);
  }

  /** The visit the marker names is this owner's, of this identification, and not idle too long. */
  #inVisit(
    marker: VisitMarker | undefined,
    owner: Owner,
    identificationId: string,
    now: number,
  ): marker is VisitMarker {
    return (
      marker !== undefined &&
      marker.identificationId === identificationId &&
      marker.accountId === (owner.accountId ?? null) &&
      now - marker.seenAt <= this.settings.visitIdleMs
    );
  }

  /** A stored decision that says something (not invalidated) and is younger than staleIfErrorMs. */
  #usable(stored: StoredDecision | undefined, now: number): stored is StoredDecision & { status: string } {
    return stored !== undefined && stored.status !== null && now - stored.at < this.settings.staleIfErrorMs;
  }

  /** A stored decision a visit may be granted from. */
  #grantable(stored: StoredDecision | undefined, now: number): stored is StoredDecision & { status: string } {
    return this.#usable(stored, now) && isApproved(stored.status);
  }

  /** The visit's seenAt, refreshed at most every visitIdleMs / 10. */
  #touch(req: KitRequest, marker: VisitMarker, now: number): void {
    if (now - marker.seenAt > this.settings.visitIdleMs / 10) this.enter(req, { ...marker, seenAt: now });
  }

  /**
   * How old a stored decision may be before it is re-read: maxAgeFor('visit'), or sooner for a
   * grant that overrode a verified refusal (record()).
   */
  #maxAgeOf(stored: StoredDecision, options: DecideOptions): number {
    const maxAgeMs = maxAgeFor('visit', options.maxAgeMs, this.settings);
    return stored.reReadAfterMs === undefined ? maxAgeMs : Math.min(maxAgeMs, stored.reReadAfterMs);
  }

  /**
   * How a gated request's read is counted, made only for a read: a browser may repeat a gated
   * request at will, so its reads are counted, but a verified person's (a stored APPROVED) go
   * through however many others spend (read-budget.ts).
   */
  #budget(req: KitRequest, owner: Owner, identificationId: string) {
    const cause = () => browserCause(req, owner, { vouched: () => this.#vouched(identificationId) });
    return { cause, whenRefused: 'refusal' } as const;
  }

  /** Whether the identification has a stored APPROVED (a verified person: read-budget.ts). */
  async #vouched(identificationId: string): Promise<boolean> {
    return vouches(await this.stored(identificationKey(identificationId)));
  }

  /** A grant from the stored decision; re-read in the background once older than maxAgeMs. */
  #storedGrant(
    req: KitRequest,
    identificationId: string,
    stored: StoredDecision,
    now: number,
    options: DecideOptions,
    refresh = true,
  ) {
    if (refresh && now - stored.at >= this.#maxAgeOf(stored, options)) this.#refresh(req, identificationId);
    return {
      identification: { id: identificationId, status: 'APPROVED' },
      source: 'stored',
    } satisfies Decided;
  }

  /**
   * Inside a visit, the decision of the identification its marker names, asked for now: beside the
   * account's binding, so a shared store answers both in one round trip (node-redis pipelines the
   * commands of one tick). undefined when no visit can be going on.
   */
  prefetch(req: KitRequest, owner: Owner, options: DecideOptions = {}): Prefetched | undefined {
    if ((options.freshness ?? this.settings.freshness) !== 'visit') return undefined;
    const marker = req.visitor.visit();
    if (marker === undefined || marker.accountId !== (owner.accountId ?? null)) return undefined;
    if (this.now() - marker.seenAt > this.settings.visitIdleMs) return undefined;
    const { store } = this.bindings;
    let decision: Maybe<StoredDecision | undefined>;
    try {
      decision = this.bindings.stored(() => store.decisions.get(identificationKey(marker.identificationId)));
    } catch (error) {
      decision = Promise.reject(error);
    }
    // Unused when the binding names another identification; when used, awaited (and thrown) there.
    if (isThenable(decision)) decision.catch(() => undefined);
    return { identificationId: marker.identificationId, decision };
  }

  /** forget(): the stored decision is retired, and this browser's visit ends. */
  async forget(req: KitRequest, identificationId: string | undefined): Promise<void> {
    req.visitor.setVisit(undefined);
    if (identificationId !== undefined) await this.retire(identificationId);
  }

  /** Stale-while-revalidate: one background re-read (the reader's hook stores what it sees). */
  #refresh(req: KitRequest, identificationId: string): void {
    const key = identificationKey(identificationId);
    if (this.#refreshing.has(key)) return;
    this.#refreshing.set(key, true);
    // debug: in an outage every person in a visit retries once a second (the gate's 503s are errors).
    const reading = this.reader.read(identificationId, { cause: KIT_READ }).catch((error: unknown) => {
      this.log.debug('a stored decision could not be re-read; it is served until staleIfErrorMs', {
        identificationId,
        error: error instanceof Error ? error.message : String(error),
      });
    });
    // Where the runtime ends what a finished request left running (Workers), the request keeps it.
    req.waitUntil?.(reading);
  }

  /** Without a browser session (accounts only) there is no visit: every gated request reads. */
  enter(req: KitRequest, marker: VisitMarker): void {
    req.visitor.setVisit(marker);
  }
}

/** What a read of this request said, for the browser to carry where it carries decisions. */
function carry(req: KitRequest, status: string, at: number): void {
  req.visitor.carryDecision?.({ status, at, source: 'read' });
}
