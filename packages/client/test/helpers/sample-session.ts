// A sample API key, session request and the service's answer to it, for the client tests.
import type { CreateSessionRequest } from '../../src/index.js';

export const API_KEY = 'sk_test_9f8e7d6c5b4a-DO-NOT-LEAK';
export const SESSION_ID = '0b5c8a34-6a1e-4d8e-9a57-2f4f0c1d9e11';
export const IDENTIFICATION_ID = '7d0f3b5e-1c2a-4b9e-8f6d-3a2b1c0d9e8f';

export function sessionAnswer(base: string) {
  return {
    id: SESSION_ID,
    identificationId: IDENTIFICATION_ID,
    sessionCode: 'K7M2P9QX',
    deepLink: `idv://app-url/${base}/verification-session/${SESSION_ID}`,
    qrCodeLink: `${base}/api/v1/verification-sessions/${SESSION_ID}/qr-code`,
    sessionPageLink: `${base}/public/verification-sessions/${SESSION_ID}`,
    expiresAt: '2030-01-01T00:30:00.000Z',
  };
}

export const sessionRequest: CreateSessionRequest = {
  workflowId: 'default',
  email: 'ayse@example.com',
  locale: 'tr',
};
