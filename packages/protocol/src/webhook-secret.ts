/*
 * A webhook secret (@verify-kit/protocol/webhook-secret), read once for the client (node:crypto) and
 * core (crypto.subtle). The spec leaves webhook signing out ("not shown"); verify-kit follows Standard
 * Webhooks v1 (docs/architecture.md, decision 13), so its reference library is the rule: a secret is
 * base64, shown as `whsec_<base64>`, and the `whsec_` prefix may be left out. Web APIs only (atob).
 */
const PREFIX = 'whsec_';
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
