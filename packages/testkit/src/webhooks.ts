import { randomUUID } from 'node:crypto';
import { signWebhook } from '@verify-kit/client';
import type { Browser, BrowserResponse } from './browser.js';

export interface WebhookInput {
  secret: string;
  identificationId: string;
  type?: string;
  /** The identification's status the event carries; default the one its type names (IN_AUTOMATIC_REVIEW for a review step). */
  status?: string;
  id?: string;
  /** Unix seconds of the delivery (the signature's); default now. */
  timestamp?: number;
  /** When the event happened (the payload's `timestamp`, epoch ms); default the delivery's time. */
  occurredAt?: number;
  /** Replaces the JSON payload. */
  rawBody?: string;
}

/** The status an event of each type carries, as the service sends it. */
const STATUS_OF_EVENT: Record<string, string> = {
  'identification.approved': 'APPROVED',
  'identification.rejected': 'REJECTED',
  'identification.resubmission_required': 'RESUBMISSION_REQUIRED',
  'identification.in_manual_review': 'IN_MANUAL_REVIEW',
};

/** Delivers a Standard Webhooks v1 event to the kit as the service would. */
export function deliverWebhook(
  browser: Browser,
  input: WebhookInput,
): Promise<BrowserResponse<{ error?: { code: string } }>> {
  const id = input.id ?? `msg_${randomUUID()}`;
  const now = Date.now();
  const timestamp = input.timestamp ?? Math.floor(now / 1000);
  const type = input.type ?? 'identification.submitted';
  const body =
    input.rawBody ??
    JSON.stringify({
      type,
      timestamp: new Date(
        input.occurredAt ?? (input.timestamp === undefined ? now : timestamp * 1000),
      ).toISOString(),
      data: {
        verificationSessionId: randomUUID(),
        identificationId: input.identificationId,
        status: input.status ?? STATUS_OF_EVENT[type] ?? 'IN_AUTOMATIC_REVIEW',
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
