import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** Date.now() when the request (with its body) arrived. */
  at: number;
  /** The client's port: equal for two requests on one keep-alive connection. */
  remotePort: number | undefined;
}

export type Answer = (res: ServerResponse, req: RecordedRequest) => void;

export interface FakeUpstream {
  url: string;
  requests: RecordedRequest[];
  /** Answers the next requests in this order; the last answer repeats. */
  answer(...answers: Answer[]): void;
  /** Resolves when `count` requests have arrived. */
  received(count: number): Promise<void>;
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 that answers each test's way, and records what it received. */
export async function startFakeUpstream(): Promise<FakeUpstream> {
  const requests: RecordedRequest[] = [];
  let answers: Answer[] = [json(500, { error: { code: 'NO_ANSWER', message: 'no answer set' } })];
  const waiters: { count: number; resolve: () => void }[] = [];

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
        remotePort: req.socket.remotePort,
      };
      const answer = answers[Math.min(requests.length, answers.length - 1)]!;
      requests.push(recorded);
      for (const waiter of waiters.filter((w) => requests.length >= w.count)) waiter.resolve();
      answer(res, recorded);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    answer(...next) {
      answers = next;
    },
    received(count) {
      if (requests.length >= count) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Answer {
  return (res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
}

export function text(status: number, body: string, headers: Record<string, string> = {}): Answer {
  return (res) => {
    res.writeHead(status, { 'content-type': 'text/plain', ...headers });
    res.end(body);
  };
}

/** Never answers (until the server closes). */
export const silence: Answer = () => {};

/** A port that was open a moment ago and is now closed: connecting to it is refused. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}
