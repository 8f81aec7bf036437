import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CountingProxy {
  url: string;
  /** GET /api/v1/identifications/<id> requests forwarded since the last reset. */
  readonly identificationReads: number;
  /** performance.now() of each counted read since the last reset. */
  readonly readTimes: readonly number[];
  reset(): void;
  close(): Promise<void>;
}

const IDENTIFICATION_READ = /^\/api\/v1\/identifications\/[^/?]+(\?.*)?$/;

/** A transparent HTTP proxy on 127.0.0.1 in front of the sandbox that counts status reads. */
export async function startCountingProxy(target: string): Promise<CountingProxy> {
  const upstream = new URL(target);
  const agent = new http.Agent({ keepAlive: true });
  let reads = 0;
  let times: number[] = [];
  const server = http.createServer((req, res) => {
    if (req.method === 'GET' && IDENTIFICATION_READ.test(req.url ?? '')) {
      reads++;
      times.push(performance.now());
    }
    const forward = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host },
        agent,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get identificationReads() {
      return reads;
    },
    get readTimes() {
      return times;
    },
    reset() {
      reads = 0;
      times = [];
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
