// What the fault proxy sends instead of the upstream's answer, and how it forwards.
import { randomUUID } from 'node:crypto';
import {
  type Agent,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { Outcome } from './fault-proxy.js';
import { pick } from './random.js';

const MAX_BODY_BYTES = 1024 * 1024;
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'upgrade',
  'proxy-connection',
]);

export function readAll(stream: IncomingMessage): Promise<Buffer> {
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

export interface Upstream {
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

export function forward(
  target: string | undefined,
  agent: Agent,
  req: IncomingMessage,
  body: Buffer,
): Promise<Upstream> {
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
}

export function send(
  res: ServerResponse,
  status: number,
  headers: IncomingHttpHeaders,
  body: Buffer | string,
) {
  if (res.destroyed) return;
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  res.writeHead(status, { ...endToEnd(headers), 'content-length': String(bytes.length) });
  res.end(bytes);
}

/** Answers 500/502/503 itself (JSON, HTML or empty); returns what it sent. */
export function answerServerError(random: () => number, res: ServerResponse): string {
  const status = pick(random, [500, 502, 503]);
  const variant = pick(random, ['json', 'html', 'empty'] as const);
  if (variant === 'json') {
    const body = JSON.stringify({ error: { code: 'INTERNAL_ERROR', message: 'injected' } });
    send(res, status, { 'content-type': 'application/json' }, body);
  } else if (variant === 'html') {
    send(res, status, { 'content-type': 'text/html' }, '<html><body>Bad Gateway</body></html>');
  } else {
    send(res, status, {}, '');
  }
  return `${status} ${variant}`;
}

/** Sends the upstream's answer, or what `outcome` makes of it; returns what was done. */
export function misbehave(
  outcome: Outcome,
  random: () => number,
  upstream: Upstream,
  res: ServerResponse,
): { outcome: Outcome; detail?: string } {
  if (outcome === 'reset') {
    res.writeHead(upstream.status, {
      ...endToEnd(upstream.headers),
      'content-length': String(upstream.body.length),
    });
    res.write(upstream.body.subarray(0, Math.floor(upstream.body.length / 2)), () => res.destroy());
    return { outcome };
  }
  if (outcome === 'wrong_json') {
    const wrong = wrongJson(random, upstream.body);
    send(res, upstream.status, upstream.headers, wrong.body);
    return { outcome, detail: wrong.detail };
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
      send(res, upstream.status, upstream.headers, JSON.stringify({ ...parsed, status: flipped }));
      return { outcome, detail: `${status} -> ${JSON.stringify(flipped)}` };
    }
    send(res, upstream.status, upstream.headers, upstream.body);
    return { outcome: 'pass', detail: 'no status to flip' };
  }
  send(res, upstream.status, upstream.headers, upstream.body);
  return { outcome };
}
