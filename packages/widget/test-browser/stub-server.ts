import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import {
  isFinalPhase,
  type Phase,
  type SendLinkOffer,
  type SessionRequestBody,
  type SessionResponseBody,
  type StatusResponseBody,
} from '@verify-kit/protocol';

const DIST = new URL('../dist/', import.meta.url);
/** The standalone module and the chunks it loads on demand (the strings of other locales). */
const BUILT = /^\/(verify-identity\.[\w.]+\.js)$/;
const CODES = ['K7QM4XRT', 'P9WN3HJE', 'C4VB8ZDF', 'T2RX6MWQ'];

/**
 * A one-shot answer queued for the next call of a route. Without `status` (and `destroy`) the normal
 * answer follows the delay or hold.
 */
export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Wait before answering. */
  delayMs?: number;
  /** Hold the answer until this settles. */
  hold?: Promise<unknown>;
  /** Cut the connection without an answer (a network error for the browser). */
  destroy?: boolean;
}

export interface LoggedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
  /** Milliseconds since the server started, when the request arrived. */
  at: number;
  /** When the answer was sent (undefined while in flight or if aborted). */
  answeredAt?: number;
  answeredStatus?: number;
}

export interface PageOptions {
  /** Attributes of <verify-identity>, as HTML. */
  attrs?: string;
  /** Light-DOM children of the element (e.g. the `done` slot). */
  inner?: string;
  /** `lang` of <html>; null for none. */
  lang?: string | null;
  /**
   * A module of `modules` the page loads instead of the standalone build; the page then has no
   * element of its own (the module renders it, as a framework's page would).
   */
  module?: string;
}

/**
 * A stand-in for the express kit's protocol on 127.0.0.1 (port 0): POST /identity/session,
 * GET /identity/status (long-poll, switchable), GET /identity/qr.svg (the session answer carries the
 * image too, as the kit's does), plus a test page under a strict CSP (the README's: images from the
 * page's origin and `data:`) that loads the standalone build. Every API call is logged; concurrency is measured.
 */
export class StubServer {
  url = '';
  phase: Phase = 'awaiting_user';
  status = 'IN_AUTOMATIC_REVIEW';
  /** Epoch ms when the current session expires. */
  expiresAt = 0;
  /** Minutes a new session lives. */
  sessionMs = 30 * 60_000;
  /** Whether GET /status honours `wait`/`since`. */
  longPoll = true;
  /** Sent as `pollAfterMs` (the kit's `longPoll: false`): no held reads. */
  pollAfterMs?: number;
  /** What the kit offers: the channels with the person's own contact, masked. */
  sendLink: SendLinkOffer[] = [];
  /** The masked contact of the last `sendTo`. */
  sentTo?: string;
  /** Links as a hostile upstream might send them (the kit refuses those; the widget must too). */
  links: Partial<Pick<SessionResponseBody, 'deepLink' | 'sessionPageLink'>> = {};
  sessionCode = '';
  sessions = 0;
  readonly sessionReplies: Reply[] = [];
  readonly statusReplies: Reply[] = [];
  readonly log: LoggedRequest[] = [];
  /** The built files the page loaded, in order (e.g. `verify-identity.strings.tr.js`). */
  readonly scripts: string[] = [];
  /** Further scripts, by name, served at `/<name>` (e.g. a page bundled by the test). */
  readonly modules = new Map<string, string>();
  inFlight = 0;
  maxInFlight = 0;
  /** Cut every API call without an answer (the browser sees a network error; it may retry once). */
  unreachable = false;

  private readonly server: Server;
  private readonly started = Date.now();
  private readonly pages = new Map<string, string>();
  private readonly waiters = new Set<() => void>();

  constructor() {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(599).end(String(error));
      });
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    for (const wake of this.waiters) wake();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  /** Moves the bound session to `phase` and wakes held long-polls. */
  setPhase(phase: Phase, status = this.status): void {
    this.phase = phase;
    this.status = status;
    for (const wake of this.waiters) wake();
  }

  /** The phase as the kit derives it: a live phase turns into `expired` once the session expired. */
  currentPhase(): Phase {
    return !isFinalPhase(this.phase) && Date.now() >= this.expiresAt ? 'expired' : this.phase;
  }

  /** Registers a test page and returns its URL. */
  page(options: PageOptions = {}): string {
    const id = String(this.pages.size + 1);
    const lang = options.lang === null ? '' : ` lang="${options.lang ?? 'en'}"`;
    this.pages.set(
      id,
      `<!doctype html><html${lang}><head><meta charset="utf-8"><meta name="color-scheme" content="light dark">` +
        `<meta name="viewport" content="width=device-width, initial-scale=1">` +
        '<title>verify-identity test page</title>' +
        `<script type="module" src="/${options.module ?? 'verify-identity.standalone.js'}"></script></head>` +
        '<body><main><h1>Verify</h1>' +
        (options.module
          ? ''
          : `<verify-identity ${options.attrs ?? 'endpoint="/identity"'}>${options.inner ?? ''}</verify-identity>`) +
        '</main></body></html>',
    );
    return `${this.url}/page/${id}`;
  }

  /** API calls (session and status) so far, optionally of one path. */
  calls(path?: '/identity/session' | '/identity/status'): LoggedRequest[] {
    return this.log.filter((r) => (path ? r.path === path : r.path !== '/identity/qr.svg'));
  }

  /**
   * The body of the `index`-th POST /session without its holder, which it checks: the browser's
   * random id (a UUID), the same on every start of this browser (the kit resumes only its own).
   */
  sentSession(index = 0): Record<string, unknown> {
    const bodies = this.calls('/identity/session').map((call) => JSON.parse(call.body || '{}'));
    const { holder, ...rest } = bodies[index] ?? {};
    if (typeof holder !== 'string' || !/^[0-9a-f-]{36}$/.test(holder)) {
      throw new Error(`POST /session #${index} sent no holder: ${JSON.stringify(bodies[index])}`);
    }
    if (bodies.some((body) => body.holder !== holder)) throw new Error('the holder changed between starts');
    return rest;
  }

  sinceStart(): number {
    return Date.now() - this.started;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const path = url.pathname;
    if (await this.serveAsset(path, res)) return;
    const entry = await this.logRequest(req, url);
    if (path === '/identity/qr.svg') {
      res.writeHead(200, { 'content-type': 'image/svg+xml', 'cache-control': 'private' });
      return void res.end(QR_SVG);
    }
    this.track(entry, res);
    if (this.unreachable) return void req.socket.destroy();
    if (path === '/identity/session' && req.method === 'POST') return this.answerSession(req, res, entry);
    if (path === '/identity/status' && req.method === 'GET') return this.answerStatus(req, res, url);
    json(res, 404, { error: { code: 'NOT_FOUND', message: path } });
  }

  /** Answers the test pages, the built files and the other non-API paths; false for an API call. */
  private async serveAsset(path: string, res: ServerResponse): Promise<boolean> {
    const built = BUILT.exec(path)?.[1];
    if (path.startsWith('/page/')) this.servePage(path.slice(6), res);
    else if (built) await this.serveBuilt(built, res);
    else if (this.modules.has(path.slice(1))) {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' });
      res.end(this.modules.get(path.slice(1)));
    } else if (path === '/favicon.ico') res.writeHead(204).end();
    else if (path === '/elsewhere') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><html lang="en"><title>elsewhere</title><p>elsewhere</p></html>');
    } else return false;
    return true;
  }

  private servePage(id: string, res: ServerResponse): void {
    const html = this.pages.get(id);
    if (!html) return void res.writeHead(404).end();
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'set-cookie': 'sid=stub-session; Path=/; HttpOnly; SameSite=Strict',
      'content-security-policy':
        "default-src 'none'; script-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self'; " +
        "base-uri 'none'; form-action 'none'; require-trusted-types-for 'script'; trusted-types lit-html",
    });
    res.end(html);
  }

  private async serveBuilt(name: string, res: ServerResponse): Promise<void> {
    const file = await readFile(fileURLToPath(new URL(name, DIST))).catch(() => undefined);
    if (!file) return void res.writeHead(404).end();
    this.scripts.push(name);
    res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' });
    res.end(file);
  }

  private async logRequest(req: IncomingMessage, url: URL): Promise<LoggedRequest> {
    const entry: LoggedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body: await readBody(req),
      at: this.sinceStart(),
    };
    this.log.push(entry);
    return entry;
  }

  /** Counts the call in flight until its connection closes, and notes when it was answered. */
  private track(entry: LoggedRequest, res: ServerResponse): void {
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    // Noted as res.end() is called, before any byte of the answer's end goes out: the earliest the
    // browser can have the answer. ('prefinish' waits for earlier writes to flush: on a loaded
    // machine it came 144 ms after the browser had the answer, and a retry looked early.)
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    res.end = ((...args: unknown[]) => {
      entry.answeredAt ??= this.sinceStart();
      entry.answeredStatus = res.statusCode;
      return end(...args);
    }) as ServerResponse['end'];
    res.on('close', () => this.inFlight--);
  }

  private async answerSession(
    req: IncomingMessage,
    res: ServerResponse,
    entry: LoggedRequest,
  ): Promise<void> {
    const reply = this.sessionReplies.shift();
    if (reply && (await this.sendReply(req, res, reply))) return;
    const request = JSON.parse(entry.body || '{}') as SessionRequestBody;
    if (!this.sessionCode || request.restart || this.currentPhase() === 'expired') this.newSession();
    if (request.sendTo) {
      const channel = request.sendTo.channel;
      this.sentTo = this.sendLink.find((offer) => offer.channel === channel)?.to;
    }
    json(res, 201, this.sessionBody());
  }

  private async answerStatus(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const reply = this.statusReplies.shift();
    if (reply && (await this.sendReply(req, res, reply))) return;
    if (!this.sessionCode) return json(res, 404, { error: { code: 'NO_SESSION', message: 'none bound' } });
    const since = url.searchParams.get('since');
    const wait = Number(url.searchParams.get('wait') ?? 0);
    if (this.longPoll && since === this.currentPhase() && wait > 0)
      await this.waitForChange(since, wait, res);
    if (res.closed) return;
    const body: StatusResponseBody = {
      phase: this.currentPhase(),
      status: this.status,
      expiresAt: new Date(this.expiresAt).toISOString(),
      ...(this.pollAfterMs === undefined ? {} : { pollAfterMs: this.pollAfterMs }),
    };
    json(res, 200, body);
  }

  private newSession(): void {
    this.sentTo = undefined;
    this.sessionCode = CODES[this.sessions++ % CODES.length]!;
    this.expiresAt = Date.now() + this.sessionMs;
    this.phase = 'awaiting_user';
    this.status = 'IN_AUTOMATIC_REVIEW';
  }

  sessionBody(): SessionResponseBody {
    return {
      sessionCode: this.sessionCode,
      deepLink: `idv://app-url/https://idv.example/verification-session/s-${this.sessions}`,
      qrCodeUrl: '/identity/qr.svg',
      qrImage: `data:image/svg+xml,${encodeURIComponent(QR_SVG)}`,
      sessionPageLink: `https://idv.example/public/verification-session/s-${this.sessions}`,
      expiresAt: new Date(this.expiresAt).toISOString(),
      sendLink: this.sendLink,
      ...(this.sentTo === undefined ? {} : { sentTo: this.sentTo }),
      ...(this.pollAfterMs === undefined ? {} : { pollAfterMs: this.pollAfterMs }),
      status: this.status,
      phase: this.currentPhase(),
      ...this.links,
    };
  }

  /** True when the reply answered (or dropped) the request; false to go on with the normal answer. */
  private async sendReply(req: IncomingMessage, res: ServerResponse, reply: Reply): Promise<boolean> {
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (reply.hold) await reply.hold;
    if (reply.destroy) req.socket.destroy();
    if (res.closed || reply.destroy) return true;
    if (reply.status === undefined) return false;
    res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
    res.end(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? null));
    return true;
  }

  private waitForChange(since: string, waitSeconds: number, res: ServerResponse): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        clearTimeout(expiry);
        this.waiters.delete(check);
        resolve();
      };
      const check = () => {
        if (this.currentPhase() !== since || res.closed) done();
      };
      const timer = setTimeout(done, waitSeconds * 1000);
      const expiry = setTimeout(check, Math.max(0, this.expiresAt - Date.now()) + 5);
      this.waiters.add(check);
      res.on('close', check);
    });
  }
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of req) body += chunk;
  return body;
}

// A fixed, QR-like picture: the widget only shows the kit's image, it never draws a QR itself.
const QR_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 21 21" shape-rendering="crispEdges">' +
  '<path fill="#fff" d="M0 0h21v21H0z"/><path d="M0 0h7v7H0zM14 0h7v7h-7zM0 14h7v7H0z' +
  'M9 2h2v2H9zM9 9h3v3H9zM14 9h2v5h-2zM9 15h5v2H9zM17 17h3v3h-3z"/>' +
  '<path fill="#fff" d="M1 1h5v5H1zM15 1h5v5h-5zM1 15h5v5H1z"/>' +
  '<path d="M2 2h3v3H2zM16 2h3v3h-3zM2 16h3v3H2z"/></svg>';
