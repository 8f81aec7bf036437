import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Listening, listen, readBody } from './servers.js';

export const FAULTS = [
  'refused',
  'timeout',
  'slow-body',
  '500',
  '502-html',
  'malformed-json',
  'wrong-shape',
  'unknown-status',
  '404',
  '429',
] as const;
export type Fault = (typeof FAULTS)[number];
/** `wrong-id`: a well-formed answer about another identification. */
export type Mode = 'healthy' | Fault | 'wrong-id';

export interface FakeUpstream extends Listening {
  mode: Mode;
  /** The identification of the session created last. */
  lastIdentificationId(): string;
  /** Identification reads received (GET /api/v1/identifications/:id). */
  reads: number;
  /** Status of every identification the fake created; tests set it. */
  statuses: Map<string, string>;
  /** Extra fields of identification reads (e.g. documentSubmitted); none by default. */
  extra: Record<string, unknown>;
  /** Bodies of the session creations received. */
  created: unknown[];
  /** Resolves when released; identification reads (the status as it was on arrival) wait for it while set. */
  hold: Promise<void> | undefined;
  /** The same for session creations. */
  holdCreate: Promise<void> | undefined;
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

/** Answers as `mode` misbehaves; false when the request is to be served normally. */
function fault(mode: Mode, req: IncomingMessage, res: ServerResponse): boolean {
  switch (mode) {
    case 'healthy':
    case 'unknown-status':
    case 'wrong-id':
    case 'refused':
      return false;
    case 'timeout':
      return true; // never answers
    case 'slow-body':
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"id":"');
      return true; // and the rest never comes
    case '500':
      json(res, 500, { error: { code: 'INTERNAL', message: 'boom' } });
      return true;
    case '502-html':
      res
        .writeHead(502, { 'content-type': 'text/html' })
        .end('<html><body><h1>502 Bad Gateway</h1></body></html>');
      return true;
    case 'malformed-json':
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"id": "x", "status": ');
      return true;
    case 'wrong-shape':
      json(res, req.method === 'POST' ? 201 : 200, { hello: 'world', items: [1, 2] });
      return true;
    case '404':
      json(res, 404, { error: { code: 'NOT_FOUND', message: 'no such thing' } });
      return true;
    case '429':
      json(res, 429, { error: { code: 'RATE_LIMITED', message: 'slow down' } }, { 'retry-after': '120' });
      return true;
  }
}

/**
 * A small stand-in of the service on 127.0.0.1 that answers correctly ('healthy') or misbehaves in
 * one of the ways the kit must survive. It never checks the API key: it only serves these tests.
 */
export async function startFakeUpstream(): Promise<FakeUpstream> {
  const server = await listen();
  const fake = server as FakeUpstream;
  fake.mode = 'healthy';
  fake.reads = 0;
  fake.statuses = new Map();
  fake.extra = {};
  fake.hold = undefined;
  fake.holdCreate = undefined;
  fake.created = [];
  fake.lastIdentificationId = () => {
    const last = [...fake.statuses.keys()].at(-1);
    if (last === undefined) throw new Error('the fake upstream created no session yet');
    return last;
  };

  server.handle(async (req, res) => {
    const body = await readBody(req);
    if (fault(fake.mode, req, res)) return;
    const url = new URL(req.url ?? '/', fake.url);
    if (req.method === 'POST' && url.pathname === '/api/v1/verification-sessions') {
      fake.created.push(JSON.parse(body.toString('utf8')));
      if (fake.holdCreate) await fake.holdCreate;
      const id = randomUUID();
      const identificationId = randomUUID();
      fake.statuses.set(identificationId, 'IN_AUTOMATIC_REVIEW');
      json(res, 201, {
        id,
        identificationId,
        sessionCode: 'ABCD2345',
        deepLink: `idv://app-url/${fake.url}/verification-session/${id}`,
        qrCodeLink: `${fake.url}/api/v1/verification-sessions/${id}/qr-code`,
        sessionPageLink: `${fake.url}/public/verification-sessions/${id}`,
      });
      return;
    }
    const read = /^\/api\/v1\/identifications\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && read) {
      fake.reads++;
      const id = decodeURIComponent(read[1]!);
      // Read on arrival, answered after the hold: a status that changes meanwhile is not in this answer.
      const status = fake.mode === 'unknown-status' ? 'ON_HOLD_FOR_AUDIT' : fake.statuses.get(id);
      if (fake.hold) await fake.hold;
      if (status === undefined) json(res, 404, { error: { code: 'NOT_FOUND', message: 'unknown' } });
      else json(res, 200, { id: fake.mode === 'wrong-id' ? randomUUID() : id, status, ...fake.extra });
      return;
    }
    json(res, 404, { error: { code: 'NOT_FOUND', message: 'no route' } });
  });
  return fake;
}
