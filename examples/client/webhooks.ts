import type { IncomingMessage } from 'node:http';
import { generateWebhookSecret, signWebhook, verifyWebhook } from '@verify-kit/client';

const secret = generateWebhookSecret(); // 'whsec_' + base64 of 24 random bytes

// sender: sign the exact body you send
export function signedHeaders(id: string, body: string) {
  const timestamp = Math.floor(Date.now() / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signWebhook({ secret, id, timestamp, body }),
  };
}

// receiver: pass the raw body exactly as received (string or Buffer)
export function receive(req: IncomingMessage, rawBody: Buffer) {
  const { id, timestamp } = verifyWebhook({ secret, headers: req.headers, body: rawBody });
  return { id, timestamp };
}
