import { Agent, createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerServerError, forward, misbehave, readAll, send } from './fault-answers.js';

/**
 * What the proxy can do to one request instead of passing it through:
 * - `drop`: close the connection before the request reaches the upstream, no answer at all;
 * - `delay`: hold the request for a while (see `delayMs`), then pass it through;
 * - `reset`: forward, then send the head and half of the body and reset the connection;
 * - `server_error`: answer 500/502/503 itself (JSON, HTML or empty), the upstream never sees it;
 * - `wrong_json`: forward, then replace the body with broken JSON or JSON of the wrong shape;
 * - `unknown_status`: forward, then rewrite a `status` field to a value the v1 spec does not know
 *   (`APPROVED` becomes e.g. `APPROVED_PENDING` or `approved`). Never to `APPROVED`.
 */
export const FAULT_KINDS = [
  'drop',
  'delay',
  'reset',
  'server_error',
  'wrong_json',
  'unknown_status',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];
export type Outcome = FaultKind | 'pass';
export const OUTCOMES: readonly Outcome[] = [...FAULT_KINDS, 'pass'];

/** Probability of each fault per request (0 to 1; their sum at most 1). The rest passes through. */
export type FaultRates = Partial<Record<FaultKind, number>>;

/** Which upstream call a request is, from its method and path. */
export type UpstreamRoute = 'create' | 'read' | 'verify' | 'qr' | 'other';

export interface FaultRecord {
  seq: number;
  method: string;
  path: string;
  route: UpstreamRoute;
  outcome: Outcome;
  /** Which variant of the fault, e.g. the status written or the kind of wrong JSON. */
  detail?: string;
  /** The upstream's status when the request was forwarded. */
  upstreamStatus?: number;
}

export interface FaultProxyStats {
  requests: number;
  /** Requests the proxy could not complete (upstream refused or reset, or the client left): 502 if possible. */
  upstreamErrors: number;
  byOutcome: Record<Outcome, number>;
  byRoute: Record<UpstreamRoute, number>;
  /** Forwarded requests by the upstream's status, e.g. `{ 200: 950, 429: 3 }`. */
  byUpstreamStatus: Record<number, number>;
}

export interface FaultProxyOptions {
  /** The upstream's origin, e.g. http://127.0.0.1:4010; may be set later with setTarget(). */
  target?: string;
  /** Default: no faults (a counting pass-through proxy). */
  rates?: FaultRates;
  /** Range of the `delay` fault in ms. Default [50, 500]. */
  delayMs?: readonly [number, number];
  /** Default Math.random; pass seededRandom(n) for the same faults every run. */
  random?: () => number;
  /** Which requests may be faulted; the others pass (still counted). Default: all. */
  shouldFault?: (method: string, path: string) => boolean;
  /** How many of the latest records are kept. Default 10 000. */
  keepRecords?: number;
  /**
   * Called as each upstream answer arrives, before the proxy passes it on: the request's path and
   * body, the answer's status (e.g. to note when a webhook was acknowledged).
   */
  onAnswered?: (request: { path: string; body: Buffer }, status: number) => void;
  /** Default 0 (random) on 127.0.0.1. */
  port?: number;
  host?: string;
}

export interface FaultProxy {
  /** e.g. http://127.0.0.1:PORT: give it to the kit as its baseUrl. */
  readonly url: string;
  readonly port: number;
  setTarget(target: string): void;
  setRates(rates: FaultRates): void;
  stats(): FaultProxyStats;
  /** The latest records, oldest first. */
  records(): readonly FaultRecord[];
  resetStats(): void;
  close(): Promise<void>;
}

export function routeOf(method: string, path: string): UpstreamRoute {
  const pathname = path.split('?')[0] ?? '';
  if (method === 'POST' && /^\/api\/v1\/verification-sessions\/?$/.test(pathname)) return 'create';
  if (method === 'GET' && /^\/api\/v1\/identifications\/[^/]+\/?$/.test(pathname)) return 'read';
  if (method === 'POST' && /^\/api\/v1\/identifications\/[^/]+\/verify\/?$/.test(pathname)) return 'verify';
  if (method === 'GET' && /^\/api\/v1\/verification-sessions\/[^/]+\/qr-code\/?$/.test(pathname)) return 'qr';
  return 'other';
}

function validateRates(rates: FaultRates): Required<Record<FaultKind, number>> {
  const full = Object.fromEntries(FAULT_KINDS.map((kind) => [kind, rates[kind] ?? 0])) as Record<
    FaultKind,
    number
  >;
  let sum = 0;
  for (const kind of FAULT_KINDS) {
    const rate = full[kind];
    if (!Number.isFinite(rate) || rate < 0 || rate > 1) {
      throw new RangeError(`fault rate ${kind} must be a number from 0 to 1`);
    }
    sum += rate;
  }
  for (const kind of Object.keys(rates)) {
    if (!(FAULT_KINDS as readonly string[]).includes(kind)) throw new RangeError(`unknown fault ${kind}`);
  }
  if (sum > 1 + 1e-9) throw new RangeError('the fault rates add up to more than 1');
  return full;
}

function emptyStats(): FaultProxyStats {
  return {
    requests: 0,
    upstreamErrors: 0,
    byOutcome: Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>,
    byRoute: { create: 0, read: 0, verify: 0, qr: 0, other: 0 },
    byUpstreamStatus: {},
  };
}

/** Which fault (or none) a request gets, by the rates. */
function choose(random: () => number, rates: Record<FaultKind, number>): Outcome {
  let r = random();
  for (const kind of FAULT_KINDS) {
    if (r < rates[kind]) return kind;
    r -= rates[kind];
  }
  return 'pass';
}

/** What the proxy did: counters by route and outcome, and the latest records. */
class FaultLog {
  stats = emptyStats();
  records: FaultRecord[] = [];
  #seq = 0;

  constructor(private readonly keep: number) {}

  arrived(method: string, path: string) {
    const route = routeOf(method, path);
    this.stats.requests++;
    this.stats.byRoute[route]++;
    return { seq: ++this.#seq, method, path, route };
  }

  record(entry: FaultRecord): void {
    this.stats.byOutcome[entry.outcome]++;
    const status = entry.upstreamStatus;
    if (status !== undefined)
      this.stats.byUpstreamStatus[status] = (this.stats.byUpstreamStatus[status] ?? 0) + 1;
    this.records.push(entry);
    if (this.records.length > this.keep * 2) this.records = this.records.slice(-this.keep);
  }

  reset(): void {
    this.stats = emptyStats();
    this.records = [];
  }
}

/** The `delay` fault's range in ms, checked. */
function delayRange([min, max]: readonly [number, number] = [50, 500]): readonly [number, number] {
  if (!(min >= 0 && max >= min)) throw new RangeError('delayMs must be [min, max], 0 <= min <= max');
  return [min, max];
}

/** Listens on host:port (port 0: any free one); the port it got. */
function listenOn(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });
}

/** The upstream is down or the client left: a proxy answers 502 when it still can. */
function answerUnreachable(res: ServerResponse): void {
  if (!res.headersSent && !res.destroyed) {
    send(res, 502, { 'content-type': 'text/plain' }, 'fault proxy: upstream unreachable');
  } else {
    res.destroy();
  }
}

/** A real node:http proxy on 127.0.0.1 that misbehaves on purpose, and records what it did. */
export async function startFaultProxy(options: FaultProxyOptions = {}): Promise<FaultProxy> {
  let target = options.target;
  let rates = validateRates(options.rates ?? {});
  const [delayMin, delayMax] = delayRange(options.delayMs);
  const random = options.random ?? Math.random;
  const shouldFault = options.shouldFault ?? (() => true);
  const keep = options.keepRecords ?? 10_000;
  // Idle upstream sockets are dropped after 2 s, before a server's 5 s keep-alive closes them.
  const agent = new Agent({ keepAlive: true, maxSockets: 512, timeout: 2000 });
  const log = new FaultLog(keep);

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    const base = log.arrived(method, path);
    const outcome = shouldFault(method, path) ? choose(random, rates) : 'pass';
    if (outcome === 'drop') {
      log.record({ ...base, outcome });
      req.socket.destroy();
      return;
    }
    if (outcome === 'server_error') {
      req.resume();
      log.record({ ...base, outcome, detail: answerServerError(random, res) });
      return;
    }
    const body = await readAll(req);
    let detail: string | undefined;
    if (outcome === 'delay') {
      const ms = Math.round(delayMin + random() * (delayMax - delayMin));
      await new Promise((resolve) => setTimeout(resolve, ms));
      detail = `${ms} ms`;
    }
    const upstream = await forward(target, agent, req, body);
    options.onAnswered?.({ path, body }, upstream.status);
    const done = misbehave(outcome, random, upstream, res);
    log.record({
      ...base,
      ...done,
      ...(detail === undefined ? {} : { detail }),
      upstreamStatus: upstream.status,
    });
  };

  const server = createServer({ keepAlive: true }, (req, res) => {
    handle(req, res).catch(() => {
      log.stats.upstreamErrors++;
      answerUnreachable(res);
    });
  });
  const host = options.host ?? '127.0.0.1';
  const port = await listenOn(server, options.port ?? 0, host);

  return {
    url: `http://${host}:${port}`,
    port,
    setTarget(next) {
      target = new URL(next).origin;
    },
    setRates(next) {
      rates = validateRates(next);
    },
    stats: () => structuredClone(log.stats),
    records: () => log.records.slice(-keep),
    resetStats: () => log.reset(),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}
