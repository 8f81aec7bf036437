import { isApproved, isKnownStatus } from '@verify-kit/client/fetch';
import { isPerProcessStore, type StoredDecision } from '../bindings/binding-store.js';
import type { Bindings } from '../bindings/bindings.js';
import { identificationKey } from '../shared/identification-key.js';
import { BoundedMap } from '../shared/lru.js';
import type { Maybe } from '../shared/maybe.js';
import type { StatusHint } from '../status/status-bus.js';
import type { DecisionSettings } from './decision-settings.js';
import { RETIRED_AT, verifiedRefusal, webhookDecisionAt } from './stored-decision.js';

/** Kept this much past staleIfErrorMs, so a slow read that started before a webhook still loses to it. */
const DECISION_TTL_MARGIN_MS = 10 * 60_000;

/**
 * The stored decision of each identification, as the kit writes it: from upstream reads, verified
 * webhooks (here or, through the status bus, on another instance), retirement and definitive
 * answers. Newer wins, in the store (DecisionRecords.put). Decisions reads it for the gate.
 */
export class DecisionStore {
  // What this process last stored per identification: a read that changes nothing skips the write.
  readonly #written = new BoundedMap<string, { status: string; at: number }>(100_000);

  constructor(
    protected readonly bindings: Bindings,
    readonly settings: DecisionSettings,
    protected readonly now: () => number,
  ) {}

  /** The stored decision under `key` (identificationKey(id)). */
  protected stored(key: string): Maybe<StoredDecision | undefined> {
    const { store } = this.bindings;
    return this.bindings.stored(() => store.decisions.get(key));
  }

  /**
   * Each upstream read that answered (StatusReader's hook): the decision, unless a newer one is
   * stored. A repeat of the APPROVED this process stored lately is skipped (strict mode reads on
   * every request): whatever stands in the store instead is a refusal or that grant. A refusal is
   * always written: another instance may have stored a grant since. Returns the status that stands
   * instead of the read's: a verified refusal holds against an APPROVED read that started less than
   * refusalSettleMs after it (the service's reads may lag its webhooks); a later read that agrees
   * grants, and is re-read once older than refusalSettleMs, not maxAgeMs.
   */
  async record(identificationId: string, status: string, startedAt: number): Promise<string | undefined> {
    const key = identificationKey(identificationId);
    const written = this.#written.get(key);
    const repeat = written?.status === status && startedAt - written.at < this.settings.maxAgeMs / 4;
    if (repeat && isApproved(status)) return undefined;
    let decision: StoredDecision = { status, at: startedAt, source: 'read' };
    try {
      if (isApproved(status)) {
        const refusal = verifiedRefusal(await this.stored(key));
        if (refusal !== undefined) {
          if (startedAt < refusal.at + this.settings.refusalSettleMs) return refusal.status;
          decision = { ...decision, reReadAfterMs: this.settings.refusalSettleMs };
        }
      }
      if (await this.put(key, decision)) {
        this.#written.set(key, { status, at: startedAt });
      }
    } catch {
      // Logged by the store wrapper; the next gated request finds the store down too (503).
    }
    return undefined;
  }

  /**
   * A verified webhook: a status the event gives that is not APPROVED replaces the stored decision
   * (refused at once), anything else invalidates it (the next gated request reads). Never a grant.
   * Written even where no decision is stored yet: a read under way (a visit's first, on this or
   * another instance) started before the event and so loses to it (newer wins). true when there was
   * a decision: the caller then reads the status at once, so an event delivered late cannot stand
   * for longer than that read.
   */
  async onWebhook(identificationId: string, hint: StatusHint): Promise<boolean> {
    const key = identificationKey(identificationId);
    this.#written.delete(key);
    // A session's events leave the identification's status as it is (decision 3).
    if (!hint?.type?.startsWith('identification.')) return false;
    if (isApproved(hint.status)) return this.#endRefusalHold(key, hint.occurredAt);
    const stored = await this.stored(key);
    if (stored?.at === RETIRED_AT) return false;
    const given = hint.status;
    const status = typeof given === 'string' && isKnownStatus(given) ? given : null;
    const at = webhookDecisionAt(
      { type: hint.type, status: given === undefined ? undefined : status, occurredAt: hint.occurredAt },
      this.now(),
    );
    const stood = await this.put(key, { status, at, source: 'webhook' });
    return stored !== undefined && stood !== false;
  }

  /**
   * A verified approval never grants (nor revokes). But one that happened after the verified refusal
   * stored ends that refusal's hold (refusalSettleMs): the service approved again (a reviewer's
   * overturn), so its APPROVED reads no longer lag the refusal. The decision becomes unknown and the
   * next gated request reads: only that read grants. An approval from before the refusal (delivered
   * late, or retried: its payload keeps its own time) changes nothing. true: the caller reads at once.
   */
  async #endRefusalHold(key: string, occurredAt: number | undefined): Promise<boolean> {
    const refusal = verifiedRefusal(await this.stored(key));
    if (refusal === undefined || occurredAt === undefined || occurredAt <= refusal.at) return false;
    return (await this.put(key, { status: null, at: this.now(), source: 'webhook' })) !== false;
  }

  /**
   * The status bus's hint, on every instance (the receiving one too). A shared store already holds
   * the receiving instance's write, followed by its read (writing the event again here could put a
   * late event back over that read); a store of this process only learns of the webhook here.
   */
  onHint(identificationId: string, hint: StatusHint): void {
    this.#written.delete(identificationKey(identificationId));
    if (!isPerProcessStore(this.bindings.store)) return;
    this.onWebhook(identificationId, hint).catch(() => {
      // Logged by the store wrapper.
    });
  }

  /**
   * An identification bound to nobody any more (Bindings: replaced by a new verification, or
   * forgotten): its decision becomes one that never grants, and that no read still under way can
   * overwrite (RETIRED_AT). A visit whose marker names it, on any device or instance, then goes
   * through the binding (grantStored) and is refused.
   */
  async retire(identificationId: string): Promise<void> {
    const key = identificationKey(identificationId);
    this.#written.delete(key);
    await this.put(key, { status: null, at: RETIRED_AT, source: 'webhook' });
  }

  /**
   * The service answered definitively (a 404, an answer about another identification): the stored
   * decision says nothing any more (the next gated request reads), until a later read says more.
   */
  async invalidate(identificationId: string): Promise<void> {
    const key = identificationKey(identificationId);
    this.#written.delete(key);
    await this.put(key, { status: null, at: this.now(), source: 'read' });
  }

  /** `key`: identificationKey(id), as every store key of the kit. */
  protected put(key: string, decision: StoredDecision): Maybe<boolean> {
    const { store } = this.bindings;
    const ttlMs = this.settings.staleIfErrorMs + DECISION_TTL_MARGIN_MS;
    return this.bindings.stored(() => store.decisions.put(key, decision, ttlMs));
  }
}
