import { randomUUID } from 'node:crypto';
import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { pick } from './random.js';

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

const MAX_BODY_BYTES = 1024 * 1024;
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'upgrade',
  'proxy-connection',
]);

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
  };
}

function readAll(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
    stream.on('aborted', () => reject(new Error('aborted')));
  });
}

interface Upstream {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function endToEnd(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  }
  return out;
}

/** A statusless lie the kit must see through: each variant is a wrong body for a v1 read. */
function wrongJson(random: () => number, original: Buffer): { body: string; detail: string } {
  const variants: { detail: string; body: () => string }[] = [
    { detail: 'truncated', body: () => original.toString('utf8').slice(0, Math.floor(original.length / 2)) },
    { detail: 'html', body: () => '<html><body>Service temporarily unavailable</body></html>' },
    { detail: 'wrong-types', body: () => JSON.stringify({ id: 42, status: 7 }) },
    { detail: 'array', body: () => '[]' },
    { detail: 'bare-string', body: () => JSON.stringify('APPROVED') },
    { detail: 'no-id', body: () => JSON.stringify({ status: 'APPROVED' }) },
    // Another identification's answer (a mixed-up cache): its id differs from the one asked for.
    { detail: 'other-id', body: () => JSON.stringify({ id: randomUUID(), status: 'APPROVED' }) },
    { detail: 'null', body: () => 'null' },
  ];
  const chosen = pick(random, variants);
  return { body: chosen.body(), detail: chosen.detail };
}

const APPROVED_LOOKALIKES = ['APPROVED_PENDING', 'approved', 'Approved', 'APPROVED ', 'PRE_APPROVED', ''];

function unknownStatus(random: () => number, status: string): string {
  if (status === 'APPROVED') return pick(random, APPROVED_LOOKALIKES);
  return pick(random, [`${status}_V2`, 'ON_HOLD', `X_${Math.floor(random() * 1e9).toString(36)}`]);
}

/** A real node:http proxy on 127.0.0.1 that misbehaves on purpose, and records what it did. */
export async function startFaultProxy(options: FaultProxyOptions = {}): Promise<FaultProxy> {
  let target = options.target;
  let rates = validateRates(options.rates ?? {});
  const [delayMin, delayMax] = options.delayMs ?? [50, 500];
  if (!(delayMin >= 0 && delayMax >= delayMin))
    throw new RangeError('delayMs must be [min, max], 0 <= min <= max');
  const random = options.random ?? Math.random;
  const shouldFault = options.shouldFault ?? (() => true);
  const keep = options.keepRecords ?? 10_000;
  // Idle upstream sockets are dropped after 2 s, before a server's 5 s keep-alive closes them.
  const agent = new Agent({ keepAlive: true, maxSockets: 512, timeout: 2000 });
  let stats = emptyStats();
  let records: FaultRecord[] = [];
  let seq = 0;

  const record = (entry: FaultRecord) => {
    stats.byOutcome[entry.outcome]++;
    records.push(entry);
    if (records.length > keep * 2) records = records.slice(-keep);
  };

  const choose = (method: string, path: string): Outcome => {
    if (!shouldFault(method, path)) return 'pass';
    let r = random();
    for (const kind of FAULT_KINDS) {
      if (r < rates[kind]) return kind;
      r -= rates[kind];
    }
    return 'pass';
  };

  const forward = (req: IncomingMessage, body: Buffer): Promise<Upstream> => {
    if (target === undefined) return Promise.reject(new Error('the fault proxy has no target yet'));
    const url = new URL(req.url ?? '/', target);
    return new Promise((resolve, reject) => {
      const upstream = httpRequest(
        url,
        {
          method: req.method,
          agent,
          headers: { ...endToEnd(req.headers), host: url.host, 'content-length': String(body.length) },
        },
        (response) => {
          readAll(response).then(
            (buffer) =>
              resolve({ status: response.statusCode ?? 502, headers: response.headers, body: buffer }),
            reject,
          );
        },
      );
      upstream.on('error', reject);
      upstream.end(body);
    });
  };

  const send = (res: ServerResponse, status: number, headers: IncomingHttpHeaders, body: Buffer | string) => {
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    res.writeHead(status, { ...endToEnd(headers), 'content-length': String(bytes.length) });
    res.end(bytes);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    const route = routeOf(method, path);
    stats.requests++;
    stats.byRoute[route]++;
    const base = { seq: ++seq, method, path, route };
    const outcome = choose(method, path);

    if (outcome === 'drop') {
      record({ ...base, outcome });
      req.socket.destroy();
      return;
    }
    if (outcome === 'server_error') {
      const status = pick(random, [500, 502, 503]);
      const variant = pick(random, ['json', 'html', 'empty'] as const);
      record({ ...base, outcome, detail: `${status} ${variant}` });
      req.resume();
      if (variant === 'json') {
        const body = JSON.stringify({ error: { code: 'INTERNAL_ERROR', message: 'injected' } });
        send(res, status, { 'content-type': 'application/json' }, body);
      } else if (variant === 'html') {
        send(res, status, { 'content-type': 'text/html' }, '<html><body>Bad Gateway</body></html>');
      } else {
        send(res, status, {}, '');
      }
      return;
    }

    const body = await readAll(req);
    if (outcome === 'delay') {
      const ms = Math.round(delayMin + random() * (delayMax - delayMin));
      await new Promise((resolve) => setTimeout(resolve, ms));
      const upstream = await forward(req, body);
      record({ ...base, outcome, detail: `${ms} ms`, upstreamStatus: upstream.status });
      if (!res.destroyed) send(res, upstream.status, upstream.headers, upstream.body);
      return;
    }

    const upstream = await forward(req, body);
    const upstreamStatus = upstream.status;
    if (outcome === 'reset') {
      record({ ...base, outcome, upstreamStatus });
      res.writeHead(upstream.status, {
        ...endToEnd(upstream.headers),
        'content-length': String(upstream.body.length),
      });
      res.write(upstream.body.subarray(0, Math.floor(upstream.body.length / 2)), () => res.destroy());
      return;
    }
    if (outcome === 'wrong_json') {
      const wrong = wrongJson(random, upstream.body);
      record({ ...base, outcome, detail: wrong.detail, upstreamStatus });
      send(res, upstream.status, upstream.headers, wrong.body);
      return;
    }
    if (outcome === 'unknown_status') {
      let parsed: unknown;
      try {
        parsed = JSON.parse(upstream.body.toString('utf8'));
      } catch {
        parsed = undefined;
      }
      const status = (parsed as { status?: unknown } | undefined)?.status;
      if (typeof parsed === 'object' && parsed !== null && typeof status === 'string') {
        const flipped = unknownStatus(random, status);
        record({ ...base, outcome, detail: `${status} -> ${JSON.stringify(flipped)}`, upstreamStatus });
        send(res, upstream.status, upstream.headers, JSON.stringify({ ...parsed, status: flipped }));
        return;
      }
      record({ ...base, outcome: 'pass', detail: 'no status to flip', upstreamStatus });
      send(res, upstream.status, upstream.headers, upstream.body);
      return;
    }
    record({ ...base, outcome: 'pass', upstreamStatus });
    send(res, upstream.status, upstream.headers, upstream.body);
  };

  const server = createServer({ keepAlive: true }, (req, res) => {
    handle(req, res).catch(() => {
      stats.upstreamErrors++;
      // The upstream is down or the client left: a proxy answers 502 when it still can.
      if (!res.headersSent && !res.destroyed) {
        send(res, 502, { 'content-type': 'text/plain' }, 'fault proxy: upstream unreachable');
      } else {
        res.destroy();
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    port,
    setTarget(next) {
      target = new URL(next).origin;
    },
    setRates(next) {
      rates = validateRates(next);
    },
    stats: () => structuredClone(stats),
    records: () => records.slice(-keep),
    resetStats() {
      stats = emptyStats();
      records = [];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}
