import { createVerifyKit } from '@verify-kit/next';

// The README's lib/verify-kit.ts with, as the other bench apps, no limit that a load from one
// address would meet (every request here comes from 127.0.0.1).
export const kit = createVerifyKit({
  baseUrl: process.env.IDV_BASE_URL!,
  apiKey: process.env.IDV_API_KEY!,
  workflowId: 'default',
  secret: process.env.VERIFY_KIT_SECRET!,
  clientAddress: 'x-forwarded-for',
  sessionLimit: false,
  upstreamReadsPerSecond: 100_000,
  readLimit: { perClient: 10_000, perIp: 1_000_000 },
});
