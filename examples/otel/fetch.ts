import { createVerifyKit } from '@verify-kit/core';
import { openTelemetry } from '@verify-kit/otel';

// Any Fetch server: Bun, Deno, Cloudflare Workers, Node through a bridge.
export const kit = createVerifyKit({
  baseUrl: process.env.IDV_BASE_URL!,
  apiKey: process.env.IDV_API_KEY!,
  workflowId: 'default',
  basePath: '/identity',
  secret: process.env.VERIFY_KIT_SECRET!,
  instrumentation: openTelemetry(), // metrics and traces through your OpenTelemetry SDK
});
