import { randomUUID } from 'node:crypto';
import { signWebhook } from '@verify-kit/client';
import type { Browser, BrowserResponse } from './browser.js';

export interface WebhookInput {
  secret: string;
  identificationId: string;
  type?: string;
  /** The identification's status the event carries; default IN_AUTOMATIC_REVIEW. */
  status?: string;
  id?: string;
  /** Unix seconds; default now. */
  timestamp?: number;
  /** Replaces the JSON payload. */
  rawBody?: string;
}

/** Delivers a Standard Webhooks v1 event to the kit as the service would. */
export function deliverWebhook(
  browser: Browser,
  input: WebhookInput,
): Promise<BrowserResponse<{ error?: { code: string } }>> {
  const id = input.id ?? `msg_${randomUUID()}`;
  const timestamp = input.timestamp ?? Math.floor(Date.now() / 1000);
  const body =
    input.rawBody ??
    JSON.stringify({
      type: input.type ?? 'identification.submitted',
      timestamp: new Date(timestamp * 1000).toISOString(),
      data: {
        verificationSessionId: randomUUID(),
        identificationId: input.identificationId,
        status: input.status ?? 'IN_AUTOMATIC_REVIEW',
      },
    });
  return browser.fetch('POST', '/identity/webhook', {
    body,
    headers: {
      'content-type': 'application/json',
      'sec-fetch-site': '',
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signWebhook({ secret: input.secret, id, timestamp, body }),
    },
  });
}
