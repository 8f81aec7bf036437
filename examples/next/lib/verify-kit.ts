// lib/verify-kit.ts
import { createVerifyKit } from '@verify-kit/next';
export const kit = createVerifyKit({
  baseUrl: process.env.IDV_BASE_URL!,
  apiKey: process.env.IDV_API_KEY!,
  workflowId: 'default',
  webhookSecret: process.env.IDV_WEBHOOK_SECRET,
  secret: process.env.VERIFY_KIT_SECRET!, // seals the anonymous visitor's cookie
});
