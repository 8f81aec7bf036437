import { once } from 'node:events';
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { createConnection } from 'node:net';

export interface Listening {
  server: Server;
  url: string;
  port: number;
  /** Replace what answers (lets a server's URL be known before its app exists). */
  handle(listener: RequestListener): void;
  close(): Promise<void>;
}

/** A port on 127.0.0.1 that was free a moment ago (for a server that must be told its address first). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A real HTTP server on 127.0.0.1, a random port unless `port` is given (a restart on the same one). */
export async function listen(listener?: RequestListener, port = 0): Promise<Listening> {
  let current: RequestListener = listener ?? ((_req, res) => res.writeHead(503).end());
  const server = createServer((req, res) => current(req, res));
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address() as AddressInfo;
  return {
    server,
    url: `http://127.0.0.1:${address.port}`,
    port: address.port,
    handle(next) {
      current = next;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export type Reply = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * A raw HTTP/1.1 exchange: what the client sends is not normalised by any library. Resolves with the
 * first response as soon as it is complete (or when the server closes), whatever is still unsent.
 */
export async function rawExchange(port: number, chunks: (string | Buffer)[]): Promise<string> {
  const socket = createConnection(port, '127.0.0.1');
  socket.on('error', () => {});
  await once(socket, 'connect');
  for (const chunk of chunks) socket.write(chunk);
  return new Promise((resolve) => {
    let text = '';
    const complete = () => {
      const end = text.indexOf('\r\n\r\n');
      if (end === -1) return false;
      const length = /\r\ncontent-length: (\d+)/i.exec(text.slice(0, end));
      return length === null || Buffer.byteLength(text.slice(end + 4)) >= Number(length[1]);
    };
    socket.on('data', (chunk) => {
      text += String(chunk);
      if (complete()) {
        socket.destroy();
        resolve(text);
      }
    });
    socket.on('close', () => resolve(text));
  });
}
