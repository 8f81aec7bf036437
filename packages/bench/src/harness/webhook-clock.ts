import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

/**
 * A pass-through proxy between the sandbox's webhooks and one kit instance, in the bench's own
 * process: it notes when the instance's 2xx answer to each identification's event arrived, on the
 * same clock (performance.now()) as the bench's requests to the other instance.
 */
export interface WebhookClock {
  url: string;
  /** When the next 2xx answer to an event about this identification arrives (performance.now()). */
  next(identificationId: string): Promise<number>;
  close(): Promise<void>;
}

export async function startWebhookClock(target: string): Promise<WebhookClock> {
  const origin = new URL(target);
  const waiting = new Map<string, (at: number) => void>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const forward = request(
        {
          host: origin.hostname,
          port: origin.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: origin.host },
        },
        (answer) => {
          const at = performance.now();
          const status = answer.statusCode ?? 0;
          if (status >= 200 && status < 300) {
            const id = identificationOf(body);
            const resolve = id === undefined ? undefined : waiting.get(id);
            if (id !== undefined && resolve !== undefined) {
              waiting.delete(id);
              resolve(at);
            }
          }
          res.writeHead(status, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on('error', () => {
        if (!res.headersSent) res.writeHead(502);
        res.end();
      });
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    next: (identificationId) =>
      new Promise<number>((resolve) => {
        waiting.set(identificationId, resolve);
      }),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function identificationOf(body: Buffer): string | undefined {
  try {
    const id = (JSON.parse(body.toString('utf8')) as { data?: { identificationId?: unknown } }).data
      ?.identificationId;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}
