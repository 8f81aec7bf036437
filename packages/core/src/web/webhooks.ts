import { VerifyKitError } from '@verify-kit/protocol/errors';
import type { VerifiedWebhook, WebhookVerificationInput } from '@verify-kit/protocol/webhooks';
import { webhookEnvelope, webhookSecretKey, webhookSecretProblem } from '@verify-kit/protocol/webhooks';
import { decodeBase64 } from './base64.js';

/** crypto.subtle's key type, named without the DOM lib (Node's types name it elsewhere). */
type SubtleKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;

/*
 * Standard Webhooks v1 verification (https://www.standardwebhooks.com; docs/architecture.md,
 * decision 13) on crypto.subtle, giving the answers of @verify-kit/client's verifyWebhook (node:crypto)
 * for the same input. The signed content is `<webhook-id>.<webhook-timestamp>.<body>`; the header
 * `webhook-signature` holds space-separated `v1,<base64 HMAC-SHA256>` entries, any one of which, under
 * any one of the secrets, passes.
 *
 * The comparison is constant-time and costs one HMAC of the body per secret, however many entries the
 * header holds: the expected MAC is computed once per secret, then each entry is checked by
 * `crypto.subtle.verify` under a random per-process key against the MAC of the expected MAC (the
 * "double HMAC" comparison), so no entry is compared byte by byte in JavaScript.
 */

/** The secret, the body and the clock (the client's verifyWebhook reads the same), and Fetch's headers. */
export interface VerifyWebhookInput extends WebhookVerificationInput {
  /** The request's headers (`request.headers`); a repeated header arrives joined with `, `. */
  headers: Headers;
}

export type { VerifiedWebhook };

const HMAC = { name: 'HMAC', hash: 'SHA-256' } as const;
const encoder = new TextEncoder();

let comparisonKey: Promise<SubtleKey> | undefined;
function comparisonKeyOnce(): Promise<SubtleKey> {
  comparisonKey ??= crypto.subtle.generateKey(HMAC, false, ['sign', 'verify']) as Promise<SubtleKey>;
  return comparisonKey;
}

// Imported keys, by secret: a delivery costs its HMACs, not an import. Bounded, for tests that make many.
const KEY_CACHE_LIMIT = 16;
const hmacKeys = new Map<string, Promise<SubtleKey>>();

/** The secret's HMAC key; throws INVALID_OPTIONS for a malformed secret (never echoing it). */
function hmacKeyOf(secret: string): Promise<SubtleKey> {
  let key = hmacKeys.get(secret);
  if (key === undefined) {
    const bytes = webhookSecretKey(secret);
    if (bytes === undefined) {
      throw new VerifyKitError('INVALID_OPTIONS', `webhook secret ${webhookSecretProblem(secret)}`);
    }
    if (hmacKeys.size >= KEY_CACHE_LIMIT) hmacKeys.delete(hmacKeys.keys().next().value as string);
    key = crypto.subtle.importKey('raw', bytes, HMAC, false, ['sign']);
    hmacKeys.set(secret, key);
  }
  return key;
}

/**
 * Resolves `{ id, timestamp }` of a webhook signed by one of the secrets; rejects with a VerifyKitError
 * WEBHOOK_HEADERS_MISSING | WEBHOOK_TIMESTAMP_STALE | WEBHOOK_SIGNATURE_INVALID, or INVALID_OPTIONS for
 * a malformed secret (a configuration error, not a verification result).
 */
export async function verifyWebhook(input: VerifyWebhookInput): Promise<VerifiedWebhook> {
  const secrets = typeof input.secret === 'string' ? [input.secret] : [...(input.secret ?? [])];
  if (secrets.length === 0) {
    throw new VerifyKitError('INVALID_OPTIONS', 'at least one webhook secret is required');
  }
  const keys = secrets.map(hmacKeyOf);

  const idHeader = input.headers.get('webhook-id')?.trim();
  const { id, timestamp, signatures } = webhookEnvelope(
    {
      // Headers joins a repeated header with ", ": a repeated webhook-id is malformed, as in the client.
      id: idHeader?.includes(', ') ? undefined : idHeader,
      timestamp: input.headers.get('webhook-timestamp')?.trim(),
      signature: input.headers.get('webhook-signature')?.trim(),
    },
    { now: input.now, toleranceSeconds: input.toleranceSeconds },
  );
  const candidates = signatures.flatMap((signature) => decodeBase64(signature) ?? []);
  if (candidates.length > 0) {
    const signed = signedContent(id, timestamp, input.body);
    const compare = await comparisonKeyOnce();
    for (const pending of keys) {
      const key = await pending;
      const expected = await crypto.subtle.sign('HMAC', key, signed);
      const expectedTag = await crypto.subtle.sign('HMAC', compare, expected);
      for (const candidate of candidates) {
        // HMAC(R, candidate) against HMAC(R, expected), compared inside crypto.subtle.
        if (await crypto.subtle.verify('HMAC', compare, expectedTag, candidate)) {
          return { id, timestamp };
        }
      }
    }
  }
  throw new VerifyKitError('WEBHOOK_SIGNATURE_INVALID', 'no webhook signature matched');
}

function signedContent(id: string, timestamp: number, body: string | Uint8Array): Uint8Array<ArrayBuffer> {
  const prefix = encoder.encode(`${id}.${timestamp}.`);
  const rest = typeof body === 'string' ? encoder.encode(body) : body;
  const out = new Uint8Array(prefix.length + rest.length);
  out.set(prefix);
  out.set(rest, prefix.length);
  return out;
}
