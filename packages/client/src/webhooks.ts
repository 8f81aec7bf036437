import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { VerifiedWebhook, WebhookVerificationInput } from '@verify-kit/protocol/webhooks';
import { webhookEnvelope, webhookSecretKey, webhookSecretProblem } from '@verify-kit/protocol/webhooks';
import { VerifyKitError } from './errors.js';

/*
 * Standard Webhooks v1 (https://www.standardwebhooks.com), docs/architecture.md, decision 13, on node:crypto.
 * Secrets: @verify-kit/protocol's webhookSecretKey, as core reads them.
 */

/** Header values as Node gives them. */
export type WebhookHeaders = Record<string, string | string[] | undefined>;

export interface SignWebhookInput {
  /** whsec_<base64> */
  secret: string;
  id: string;
  /** Unix seconds. */
  timestamp: number;
  body: string;
}

/** The secret, the body and the clock (core's verifyWebhook reads the same), and Node's headers. */
export interface VerifyWebhookInput extends WebhookVerificationInput {
  headers: WebhookHeaders;
}

export type { VerifiedWebhook };

const SECRET_PREFIX = 'whsec_';

/** `whsec_` + base64 of 24 random bytes. */
export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(24).toString('base64');
}

/** The `webhook-signature` value: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`. */
export function signWebhook(input: SignWebhookInput): string {
  if (!Number.isSafeInteger(input.timestamp) || input.timestamp < 0) {
    throw new VerifyKitError(
      'INVALID_OPTIONS',
      'webhook timestamp must be a non-negative integer (Unix seconds)',
    );
  }
  return `v1,${hmacBase64(decodeSecret(input.secret), input.id, String(input.timestamp), input.body)}`;
}

/** Throws VerifyKitError WEBHOOK_HEADERS_MISSING | WEBHOOK_TIMESTAMP_STALE | WEBHOOK_SIGNATURE_INVALID. */
export function verifyWebhook(input: VerifyWebhookInput): VerifiedWebhook {
  const keys = (typeof input.secret === 'string' ? [input.secret] : [...input.secret]).map(decodeSecret);
  if (keys.length === 0)
    throw new VerifyKitError('INVALID_OPTIONS', 'at least one webhook secret is required');

  const headers = lowerCaseKeys(input.headers);
  const { id, timestamp, signatures } = webhookEnvelope(
    {
      id: singleHeader(headers, 'webhook-id'),
      timestamp: singleHeader(headers, 'webhook-timestamp'),
      signature: headerList(headers, 'webhook-signature'),
    },
    { now: input.now, toleranceSeconds: input.toleranceSeconds },
  );
  const candidates = signatures.map((signature) => Buffer.from(signature, 'utf8'));
  for (const key of keys) {
    const expected = Buffer.from(hmacBase64(key, id, String(timestamp), input.body), 'utf8');
    for (const candidate of candidates) {
      if (candidate.length === expected.length && timingSafeEqual(candidate, expected)) {
        return { id, timestamp };
      }
    }
  }
  throw new VerifyKitError('WEBHOOK_SIGNATURE_INVALID', 'no webhook signature matched');
}

function hmacBase64(key: Uint8Array, id: string, timestamp: string, body: string | Uint8Array): string {
  return createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest('base64');
}

function decodeSecret(secret: string): Uint8Array {
  const key = webhookSecretKey(secret);
  if (key) return key;
  throw new VerifyKitError('INVALID_OPTIONS', `webhook secret ${webhookSecretProblem(secret)}`);
}

function lowerCaseKeys(headers: WebhookHeaders): WebhookHeaders {
  const out: WebhookHeaders = {};
  for (const [name, value] of Object.entries(headers ?? {})) out[name.toLowerCase()] = value;
  return out;
}

/** A header that must appear once; a repeated one counts as malformed. */
function singleHeader(headers: WebhookHeaders, name: string): string | undefined {
  const value = headers[name];
  if (Array.isArray(value)) return value.length === 1 ? value[0]?.trim() : undefined;
  return value?.trim();
}

/** webhook-signature may hold several space-separated entries, possibly over repeated headers. */
function headerList(headers: WebhookHeaders, name: string): string | undefined {
  const value = headers[name];
  const joined = Array.isArray(value) ? value.join(' ') : value;
  return joined?.trim().replace(/\s+/g, ' ');
}
