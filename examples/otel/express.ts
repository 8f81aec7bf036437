import { createVerifyKit } from '@verify-kit/express';
import { openTelemetry } from '@verify-kit/otel';

export const kit = createVerifyKit({
  baseUrl: process.env.IDV_BASE_URL!,
  apiKey: process.env.IDV_API_KEY!,
  workflowId: 'default',
  instrumentation: openTelemetry(), // metrics and traces through your OpenTelemetry SDK
});
