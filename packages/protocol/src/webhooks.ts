/*
 * Standard Webhooks (@verify-kit/protocol/webhooks): a secret and a delivery's headers, read once for
 * the client (node:crypto) and core (crypto.subtle), which each compute and compare the signature. The spec leaves webhook signing out ("not shown"); verify-kit follows Standard
 * Webhooks v1 (docs/architecture.md, decision 13), so its reference library is the rule: a secret is
 * base64, shown as `whsec_<base64>`, and the `whsec_` prefix may be left out. Web APIs only (atob).
 */
import { VerifyKitError } from './errors.js';

const PREFIX = 'whsec_';
/** How far a delivery's timestamp may be from now, either way, by default (the reference's). */
export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;
const UNIX_SECONDS = /^[0-9]{1,15}$/;
/** Padded base64; unused trailing bits may be set, as Node's and the reference library's decoders allow. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** Shorter keys are a truncated copy, not a secret the service issued (they issue 24 bytes or more). */
export const MIN_WEBHOOK_SECRET_BYTES = 16;

/** The HMAC key bytes of a webhook secret, or undefined when it is not one. */
export function webhookSecretKey(secret: unknown): Uint8Array<ArrayBuffer> | undefined {
  if (typeof secret !== 'string') return undefined;
  const encoded = secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret;
  if (!BASE64.test(encoded)) return undefined;
  const key = Uint8Array.from(atob(encoded), (char) => char.charCodeAt(0));
  return key.length >= MIN_WEBHOOK_SECRET_BYTES ? key : undefined;
}

/** Why `secret` is not a webhook secret (for one that `webhookSecretKey` refuses): every option error's words. */
export function webhookSecretProblem(secret: unknown): string {
  return typeof secret !== 'string'
    ? 'must be a string'
    : `must look like whsec_<base64 of at least ${MIN_WEBHOOK_SECRET_BYTES} bytes> (the whsec_ prefix is optional; copy it from the service’s webhook settings, e.g. process.env.IDV_WEBHOOK_SECRET)`;
}

/**
 * What the client's and core's verifyWebhook are given besides the delivery's headers, whose form is
 * each runtime's own (Node's header record, or a Fetch `Headers`).
 */
export interface WebhookVerificationInput {
  /** One secret (`whsec_<base64>`, the prefix optional), or several during a rotation: any one valid signature passes. */
  secret: string | readonly string[];
  /** The raw body, exactly as received. */
  body: string | Uint8Array;
  /** Default 300 s. */
  toleranceSeconds?: number;
  /** Unix seconds; for tests. */
  now?: number;
}

/** A delivery whose signature matched: its webhook-id and webhook-timestamp (Unix seconds). */
export interface VerifiedWebhook {
  id: string;
  timestamp: number;
}

/** A delivery's three headers, each trimmed; `undefined` when missing (or, for webhook-id, repeated). */
export interface WebhookEnvelopeHeaders {
  id: string | undefined;
  timestamp: string | undefined;
  /** Every `webhook-signature` entry, space-separated. */
  signature: string | undefined;
}

/**
 * The delivery's id, timestamp and `v1,` signatures once its headers are present and its timestamp
 * within `toleranceSeconds` of `now` (Unix seconds); else a VerifyKitError WEBHOOK_HEADERS_MISSING
 * or WEBHOOK_TIMESTAMP_STALE. The signature itself is the caller's to check.
 */
export function webhookEnvelope(
  headers: WebhookEnvelopeHeaders,
  { now = Math.floor(Date.now() / 1000), toleranceSeconds = DEFAULT_WEBHOOK_TOLERANCE_SECONDS } = {},
): { id: string; timestamp: number; signatures: string[] } {
  const { id, timestamp: timestampText, signature } = headers;
  if (!id || !timestampText || !signature) {
    throw new VerifyKitError(
      'WEBHOOK_HEADERS_MISSING',
      'webhook-id, webhook-timestamp and webhook-signature headers are required',
    );
  }
  if (!UNIX_SECONDS.test(timestampText)) {
    throw new VerifyKitError(
      'WEBHOOK_HEADERS_MISSING',
      'webhook-timestamp must be an integer (Unix seconds)',
    );
  }
  const timestamp = Number(timestampText);
  if (Math.abs(now - timestamp) > toleranceSeconds) {
    throw new VerifyKitError(
      'WEBHOOK_TIMESTAMP_STALE',
      `webhook timestamp is more than ${toleranceSeconds} s away from now`,
    );
  }
  // A repeated header may arrive joined with ", " (a comma no base64 holds).
  const signatures = signature
    .split(/\s+/)
    .map((entry) => entry.replace(/,$/, ''))
    .filter((entry) => entry.startsWith('v1,'))
    .map((entry) => entry.slice(3));
  return { id, timestamp, signatures };
}
