import { z } from 'zod';

/*
 * The spec leaves webhook signing out ("not shown"); verify-kit follows Standard Webhooks v1
 * (docs/architecture.md, decision 13), so its reference library is the rule: a secret is base64,
 * shown as `whsec_<base64>`, and the `whsec_` prefix may be left out.
 */
const PREFIX = 'whsec_';
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** Shorter keys are a truncated copy, not a secret the service issued (they issue 24 bytes or more). */
export const MIN_WEBHOOK_SECRET_BYTES = 16;

/** The HMAC key of a webhook secret, or undefined when it is not one. */
export function webhookSecretKey(secret: unknown): Buffer | undefined {
  if (typeof secret !== 'string') return undefined;
  const encoded = secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret;
  if (!BASE64.test(encoded)) return undefined;
  const key = Buffer.from(encoded, 'base64');
  return key.length >= MIN_WEBHOOK_SECRET_BYTES ? key : undefined;
}

/** A Standard Webhooks secret, for every option that takes one (the kit's, the sandbox's). */
export const WebhookSecretSchema = z
  .string({ error: 'must be a string' })
  .refine((secret) => webhookSecretKey(secret) !== undefined, {
    error: `must look like whsec_<base64 of at least ${MIN_WEBHOOK_SECRET_BYTES} bytes> (the whsec_ prefix is optional; copy it from the service’s webhook settings, e.g. process.env.IDV_WEBHOOK_SECRET)`,
  });
