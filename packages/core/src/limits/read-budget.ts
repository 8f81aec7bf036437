import type { Owner } from '../bindings/bindings.js';
import type { KitRequest } from '../bindings/kit-request.js';
import { ERROR_CODE, kitError } from '../shared/errors.js';
import type { Instrument } from '../shared/instrumentation.js';
import type { Log } from '../shared/log.js';
import type { Counter, CountIn } from './counter.js';
import type { LimitRedisClient } from './rate-limits.js';

/** `upstreamReadsPerSecond` and `readLimit` once validated (options.ts), shared through `redis` when given. */
export interface ReadBudgetSettings {
  /** Upstream reads per second of the whole deployment (every kind of read together). */
  upstreamPerSecond: number;
  /** Reads a browser's requests may start in a window, per client (browser session or account). */
  perClient: number;
  /** The same per address (an IPv6 address as its /64). */
  perIp: number;
  windowSeconds: number;
  redis?: LimitRedisClient | undefined;
  prefix: string;
}

/**
 * Why a read goes upstream. `kit`: the kit's own work (a webhook's follow-up read, a stored grant's
 * re-read, a long-poll woken by a webhook): bounded by signed events and visits, never refused by
 * the kit's own ceiling. `browser`: a request a browser can repeat at will, counted per client and
 * per address: a poll (GET /status, long-polls) within the browsers' share of the ceiling; a gated
 * request (`gate`) is counted in the whole ceiling, waiting up to GATE_WAIT_MS for room there and
 * then read all the same (a burst of visits is spread, never refused by the kit's own count).
 * `vouched` is asked only when a gated request's address is over its share: true when the
 * identification has a stored APPROVED, so a verified person's visit is read however many others
 * spend.
 */
export type ReadCause =
  | { kind: 'kit' }
  | { kind: 'browser'; client: string; address: string; gate?: { vouched: () => Promise<boolean> } };

export const KIT_READ: ReadCause = { kind: 'kit' };

export type Admission = { admitted: true } | { admitted: false; retryAfterMs: number; paused: boolean };

/** The share of the ceiling browsers' reads may use; the rest is kept for the gate's and the kit's. */
const BROWSER_SHARE = 0.5;
const ADMITTED: Admission = { admitted: true };
/** How long a gated request waits for room under the ceiling before it is refused. */
const GATE_WAIT_MS = 3000;

/** A browser's read beyond its share: answered from the last read, or 429 with Retry-After. */
export function tooManyReads(retryAfterMs: number) {
  const error = kitError(
    ERROR_CODE.TOO_MANY_STATUS_READS,
    'too many status reads from here: try again after Retry-After',
  );
  return Object.assign(error, { retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) });
}

/**
 * The upstream reads the kit may start (SECURITY.md, "One client cannot spend the service for
 * everybody"): per client and per address for reads a browser can trigger, a deployment ceiling of
 * which browsers get half, and the service's own 429 honoured by every instance for its Retry-After.
 * Counts are counter.ts's: in this process, or in Redis shared by every instance.
 */
export class ReadBudget {
  readonly #perClient: Counter;
  readonly #perAddress: Counter;
  readonly #browsers: Counter;
  readonly #all: Counter;
  readonly #pause: Counter;

  constructor(
    settings: ReadBudgetSettings,
    private readonly log: Log,
    countIn: CountIn,
    private readonly instrument?: Instrument,
  ) {
    const make = (name: string, points: number, duration = 1) =>
      countIn(settings.redis, { keyPrefix: `${settings.prefix}${name}`, points, duration });
    this.#perClient = make('client', settings.perClient, settings.windowSeconds);
    this.#perAddress = make('address', settings.perIp, settings.windowSeconds);
    this.#browsers = make('browsers', Math.max(1, Math.floor(settings.upstreamPerSecond * BROWSER_SHARE)));
    this.#all = make('all', settings.upstreamPerSecond);
    this.#pause = make('paused', 1, 3600);
  }

  /**
   * Whether a read for this cause may go upstream now. Never throws: a failing count admits. A
   * browser's read is counted in the shared ceiling only once its client and address had room, so
   * one client's refused reads spend nobody else's share.
   */
  async admit(cause: ReadCause): Promise<Admission> {
    if (cause.kind === 'kit') {
      const [paused] = await Promise.all([this.#pausedFor(), countOnly(this.#all)]);
      return paused > 0 ? { admitted: false, retryAfterMs: paused, paused: true } : ADMITTED;
    }
    // A gated request is counted per address only: a page's many gated calls are one person's.
    const [paused, ...own] = await Promise.all([
      this.#pausedFor(),
      take(this.#perAddress, cause.address),
      cause.gate === undefined ? take(this.#perClient, cause.client) : 0,
    ]);
    if (paused > 0) return { admitted: false, retryAfterMs: paused, paused: true };
    let retryAfterMs = Math.max(...own);
    if (retryAfterMs === 0) retryAfterMs = await this.#shareOf(cause);
    if (retryAfterMs === 0) return ADMITTED;
    if (cause.gate !== undefined && (await cause.gate.vouched().catch(() => false))) {
      await countOnly(this.#all);
      return ADMITTED;
    }
    this.instrument?.({ type: 'limit.refused', limit: 'status-reads' });
    return { admitted: false, retryAfterMs, paused: false };
  }

  /**
   * A point of the ceiling: a poll's within the browsers' share (else how long until there is
   * room); a gated request's once there is room, or after GATE_WAIT_MS all the same (0).
   */
  async #shareOf(cause: ReadCause & { kind: 'browser' }): Promise<number> {
    if (cause.gate === undefined) {
      return Math.max(...(await Promise.all([take(this.#browsers, 'all'), take(this.#all, 'all')])));
    }
    const deadline = Date.now() + GATE_WAIT_MS;
    for (;;) {
      const wait = await take(this.#all, 'all');
      if (wait === 0 || Date.now() + wait > deadline) return 0;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  /** The service answered 429: no instance reads for its Retry-After (1 s when it gave none). */
  pause(retryAfterMs: number | undefined): void {
    const seconds = Math.min(3600, Math.max(1, Math.ceil((retryAfterMs ?? 1000) / 1000)));
    this.log.warn('the service answered 429 to a status read; reads pause for its Retry-After', {
      seconds,
    });
    this.#pause.block('service', seconds).catch(() => undefined);
  }

  /** Milliseconds left of a pause the service asked for; 0 when none. */
  async #pausedFor(): Promise<number> {
    const res = await this.#pause.get('service').catch(() => null);
    return res !== null && res.consumedPoints > 1 ? res.msBeforeNext : 0;
  }
}

/** One point of `limiter` for `key`: 0 when within the limit, else how long until there is room. */
async function take(limiter: Counter, key: string): Promise<number> {
  try {
    await limiter.consume(key);
    return 0;
  } catch (refusal) {
    const ms = (refusal as { msBeforeNext?: unknown } | null)?.msBeforeNext;
    // A count that failed (both stores down) refuses nothing: the ceiling is a courtesy to the service.
    return typeof ms === 'number' ? Math.max(1, ms) : 0;
  }
}

/** Counts a read the ceiling may not refuse, so browsers' reads make room for it. */
async function countOnly(limiter: Counter): Promise<void> {
  await limiter.consume('all').catch(() => undefined);
}

/** A browser request's cause: its account, or its browser session, and its address. */
export function browserCause(
  req: KitRequest,
  owner: Owner,
  gate?: { vouched: () => Promise<boolean> },
): ReadCause {
  const client =
    owner.accountId !== undefined ? `account:${owner.accountId}` : `session:${req.sessionKey ?? 'none'}`;
  return { kind: 'browser', client, address: req.address, ...(gate === undefined ? {} : { gate }) };
}
