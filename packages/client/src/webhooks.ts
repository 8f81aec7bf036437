// CONTRACT STUB: the client helper replaces the bodies; the signatures are the contract.
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

export interface VerifyWebhookInput {
  /** One secret, or several during a rotation: any one valid signature passes. */
  secret: string | readonly string[];
  headers: WebhookHeaders;
  /** The raw body, exactly as received. */
  body: string | Uint8Array;
  /** Default 300 s. */
  toleranceSeconds?: number;
  /** Unix seconds; for tests. */
  now?: number;
}

export interface VerifiedWebhook {
  id: string;
  timestamp: number;
}

/** `whsec_` + base64 of 24 random bytes. */
export function generateWebhookSecret(): string {
  throw new Error('not implemented');
}

/** The `webhook-signature` value: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`. */
export function signWebhook(_input: SignWebhookInput): string {
  throw new Error('not implemented');
}

/** Throws VerifyKitError WEBHOOK_HEADERS_MISSING | WEBHOOK_TIMESTAMP_STALE | WEBHOOK_SIGNATURE_INVALID. */
export function verifyWebhook(_input: VerifyWebhookInput): VerifiedWebhook {
  throw new Error('not implemented');
}
