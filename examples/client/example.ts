import { createClient, isApproved, isVerifyKitError } from '@verify-kit/client';

const idv = createClient({ baseUrl: process.env.IDV_BASE_URL!, apiKey: process.env.IDV_API_KEY! });

const session = await idv.createSession({ workflowId: 'default', email: 'ayse@example.com', locale: 'tr' });
// session.deepLink, session.qrCodeLink, session.sessionCode, session.identificationId …

try {
  const { status } = await idv.getIdentification(session.identificationId);
  if (isApproved(status)) {
    // let the person through
  }
  const { verified } = await idv.verify(session.identificationId, { type: 'DOCUMENT_COUNTRY', value: 'TUR' });
} catch (error) {
  if (isVerifyKitError(error, 'UPSTREAM_NOT_FOUND')) {
    // unknown identification
  } else throw error;
}

await idv.close(); // on shutdown
