// A message to sign and the helpers the webhook tests share.
import { generateWebhookSecret, isVerifyKitError } from '../../src/index.js';

export const secret = generateWebhookSecret();
export const otherSecret = generateWebhookSecret();
export const id = 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W';
export const body = JSON.stringify({
  type: 'identification.approved',
  timestamp: '2025-01-01T00:00:00.000Z',
  data: { verificationSessionId: 'a', identificationId: 'b', status: 'APPROVED', name: 'ŞEYMA IŞIK' },
});
export const now = () => Math.floor(Date.now() / 1000);

export function headersFor(timestamp: number, signature: string, messageId = id) {
  return { 'webhook-id': messageId, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature };
}

/** The code of the VerifyKitError `run` throws, or undefined when it throws nothing. */
export function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (isVerifyKitError(error)) return error.code;
    throw error;
  }
  return undefined;
}
