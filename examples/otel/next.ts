// lib/verify-kit.ts
import { createVerifyKit } from '@verify-kit/next';
import { openTelemetry } from '@verify-kit/otel';

export const kit = createVerifyKit({
  baseUrl: process.env.IDV_BASE_URL!,
  apiKey: process.env.IDV_API_KEY!,
  workflowId: 'default',
  secret: process.env.VERIFY_KIT_SECRET!,
  instrumentation: openTelemetry(), // metrics and traces through your OpenTelemetry SDK
});
