import { decodeBase64 } from './base64.js';

/*
 * A Standard Webhooks secret, read as @verify-kit/client reads it (its webhook-secret.ts) and as the
 * reference library does: base64, shown as `whsec_<base64>`, the prefix optional; at least 16 bytes.
 */
const PREFIX = 'whsec_';
export const MIN_WEBHOOK_SECRET_BYTES = 16;

/** The HMAC key bytes of a webhook secret, or undefined when it is not one. */
export function webhookSecretKey(secret: unknown): Uint8Array<ArrayBuffer> | undefined {
  if (typeof secret !== 'string') return undefined;
  const encoded = secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret;
  const key = decodeBase64(encoded, { canonical: false });
  return key !== undefined && key.length >= MIN_WEBHOOK_SECRET_BYTES ? key : undefined;
}

/** Why `secret` is not a webhook secret, in the words of the client's WebhookSecretSchema. */
export function webhookSecretProblem(secret: unknown): string {
  return typeof secret !== 'string'
    ? 'must be a string'
    : `must look like whsec_<base64 of at least ${MIN_WEBHOOK_SECRET_BYTES} bytes> (the whsec_ prefix is optional; copy it from the service’s webhook settings, e.g. process.env.IDV_WEBHOOK_SECRET)`;
}
