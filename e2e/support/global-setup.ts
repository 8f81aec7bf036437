import { startDemo } from '@verify-kit/demo';

/**
 * Starts the demo as `pnpm demo` does (startDemo, with its embedded sandbox) but with the built
 * pages, as in production, on random ports and with a short review delay; the tests find it
 * through the environment.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  // With --metrics, as `pnpm demo --metrics` runs it: tests/metrics.spec.ts scrapes GET /metrics.
  const demo = await startDemo({ port: 0, reviewDelayMs: 50, metrics: true });
  if (demo.sandbox === undefined) throw new Error('the e2e suite needs the embedded sandbox');
  process.env.E2E_DEMO_URL = demo.url;
  process.env.E2E_SANDBOX_URL = demo.sandbox.url;
  process.env.E2E_SANDBOX_API_KEY = demo.sandbox.apiKey;
  return () => demo.close();
}
