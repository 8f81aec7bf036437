import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '@verify-kit/client';
import { sleep } from './helpers.js';

export interface Received {
  id: string;
  type: string;
  status?: string;
  verified: boolean;
  body: string;
}

/** A real receiver on 127.0.0.1 that checks every signature with the client's verifyWebhook. */
export async function receiver(secret: string, answer: (n: number) => number = () => 204) {
  const received: Received[] = [];
  let n = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let verified = false;
      try {
        verifyWebhook({ secret, headers: req.headers, body });
        verified = true;
      } catch {}
      const payload = JSON.parse(body);
      received.push({
        id: String(req.headers['webhook-id']),
        type: payload.type,
        status: payload.data?.status,
        verified,
        body,
      });
      n += 1;
      res.statusCode = answer(n);
      res.end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return {
    url,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export async function until<T>(
  probe: () => T | undefined | false | Promise<T | undefined>,
  what: string,
): Promise<T> {
  for (let i = 0; i < 1000; i++) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    await sleep(5);
  }
  throw new Error(`timed out waiting for ${what}`);
}
