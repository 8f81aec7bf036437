import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { type Listening, listen } from './servers.js';

/** What a Fetch handler is told beyond the `Request` (core's RequestContext shape). */
export interface FetchContext {
  /** The socket's remote address, read when the request arrived. */
  clientAddress: string;
  /** Aborted when the client disconnects before its answer is complete. */
  signal: AbortSignal;
}

export type FetchHandler = (request: Request, context: FetchContext) => Promise<Response>;

/** The rest of the body is read and dropped, as Node does when a handler answers without reading it. */
const discard = (req: IncomingMessage) => req.removeAllListeners('data').resume();

/** The body as a web stream, read as it is pulled; cancelling it drops the rest (the connection stays usable). */
function bodyOf(req: IncomingMessage): ReadableStream<Uint8Array> {
  let open = true; // until it ends, fails or is cancelled: the controller takes nothing after
  const settle = (last: () => void) => {
    if (open) last();
    open = false;
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      req.pause();
      req.on('data', (chunk: Buffer) => {
        if (open) controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) req.pause();
      });
      req.once('end', () => settle(() => controller.close()));
      req.once('error', (error) => settle(() => controller.error(error)));
    },
    pull: () => void req.resume(),
    cancel: () => settle(() => discard(req)),
  });
}

/** Method, every header, the URL from Host, the body streamed (none for GET and HEAD). */
function toRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const [headers, raw] = [new Headers(), req.rawHeaders];
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(`${raw[i]}`, `${raw[i + 1]}`);
  const method = req.method ?? 'GET';
  const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
  if (method === 'GET' || method === 'HEAD') return new Request(url, { method, headers, signal });
  return new Request(url, { method, headers, signal, body: bodyOf(req), duplex: 'half' } as RequestInit);
}

/** Status, every header (each Set-Cookie on its own), the body streamed. */
async function write(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of response.headers) if (name !== 'set-cookie') headers[name] = value;
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  res.writeHead(response.status, headers);
  if (response.body === null) res.end();
  else await pipeline(Readable.fromWeb(response.body as unknown as NodeReadableStream), res);
}

/** A Fetch handler (core's `kit.handle`) on a real HTTP server on 127.0.0.1: Node's requests in, its Responses out. */
export function serveFetch(handler: FetchHandler, options: { port?: number } = {}): Promise<Listening> {
  return listen((req, res) => {
    const controller = new AbortController();
    res.once('close', () => res.writableFinished || controller.abort());
    res.once('finish', () => req.complete || discard(req));
    let request: Request;
    try {
      request = toRequest(req, controller.signal);
    } catch {
      res.writeHead(400).end(); // a Host that makes no URL
      return;
    }
    handler(request, { clientAddress: req.socket.remoteAddress ?? '', signal: controller.signal })
      .then((response) => write(res, response))
      .catch(() => (res.headersSent ? res.destroy() : res.writeHead(500).end()));
  }, options.port);
}
