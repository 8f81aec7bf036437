import type { Clock } from './clock.js';
import { normalizeSessionCode, randomSessionCode } from './session-code.js';
import type { SessionRecord } from './session-record.js';

export interface SessionStoreHooks {
  /** A session's expiry is noticed (once per session). */
  expired(rec: SessionRecord): void;
  /** A session leaves memory (retention over, or room made for a new one). */
  evicted(rec: SessionRecord): void;
}

/**
 * Every session in memory, by session id, identification id and code. Each lookup applies the
 * passage of time to the record first: an expiry is noticed, a record past retention is evicted.
 */
export class SessionStore {
  private readonly sessions = new Map<string, SessionRecord>();
  private readonly byIdentification = new Map<string, SessionRecord>();
  private readonly byCode = new Map<string, SessionRecord>();

  constructor(
    private readonly clock: Clock,
    private readonly retentionMs: number,
    private readonly hooks: SessionStoreHooks,
  ) {}

  get size(): number {
    return this.sessions.size;
  }

  add(rec: SessionRecord): void {
    this.sessions.set(rec.id, rec);
    this.byIdentification.set(rec.identificationId, rec);
    this.byCode.set(rec.sessionCode, rec);
  }

  /** Evicts the oldest sessions until fewer than `max` are kept. */
  makeRoom(max: number): void {
    while (this.sessions.size >= max) {
      const oldest = this.sessions.values().next().value;
      if (!oldest) break;
      this.evict(oldest);
    }
  }

  /** The session, unless unknown or evicted (an expired one is answered: callers decide). */
  session(sessionId: string): SessionRecord | undefined {
    return this.present(this.sessions.get(sessionId));
  }

  identification(identificationId: string): SessionRecord | undefined {
    return this.present(this.byIdentification.get(identificationId));
  }

  /** By the code the person typed (case, spaces and dashes ignored). */
  code(code: string): SessionRecord | undefined {
    return this.present(this.byCode.get(normalizeSessionCode(code)));
  }

  /** Whether `rec` is still the record kept for its session (not evicted nor replaced). */
  holds(rec: SessionRecord): boolean {
    return this.sessions.get(rec.id) === rec;
  }

  /** A code no live session holds. */
  uniqueCode(): string {
    for (;;) {
      const code = randomSessionCode();
      const holder = this.byCode.get(code);
      if (!holder || this.observe(holder) !== 'live') return code;
    }
  }

  /** Notices expired sessions and evicts identifications past their retention. */
  sweep(): void {
    for (const rec of [...this.sessions.values()]) this.observe(rec);
  }

  private present(rec: SessionRecord | undefined): SessionRecord | undefined {
    return rec && this.observe(rec) !== 'evicted' ? rec : undefined;
  }

  /** Applies the passage of time to one record. */
  private observe(rec: SessionRecord): 'live' | 'expired' | 'evicted' {
    const now = this.clock.now();
    if (now >= rec.expiresAt + this.retentionMs) {
      this.evict(rec);
      return 'evicted';
    }
    if (now < rec.expiresAt) return 'live';
    if (!rec.expiryNoticed) {
      rec.expiryNoticed = true;
      // The code stays mapped (a lookup answers 410) until a new session draws it or eviction.
      this.hooks.expired(rec);
    }
    return 'expired';
  }

  private evict(rec: SessionRecord): void {
    this.sessions.delete(rec.id);
    this.byIdentification.delete(rec.identificationId);
    if (this.byCode.get(rec.sessionCode) === rec) this.byCode.delete(rec.sessionCode);
    this.hooks.evicted(rec);
  }
}
