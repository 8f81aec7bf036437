import { metrics } from '@opentelemetry/api';
import { createVerifyKit } from '@verify-kit/core';
import { afterEach, expect, test } from 'vitest';
import { METRICS, openTelemetry } from '../src/index.js';
import { inMemorySdk, pointValue } from './support/sdk.js';

// The hook on with no SDK registered (the API's no-op meter and tracer), and an SDK registered after
// the kit was made. Nothing listens or connects: a refused gate (no verification) needs no service.

const kitOptions = {
  baseUrl: 'http://127.0.0.1:9',
  apiKey: 'sk_test',
  workflowId: 'default',
  basePath: '/identity',
  secret: 'a-test-secret-of-at-least-32-characters',
};
const gated = () => new Request('http://app.localhost/account', { headers: { accept: 'application/json' } });

afterEach(() => metrics.disable());

test('with no SDK the gate answers as without the hook', async () => {
  const kit = createVerifyKit({ ...kitOptions, instrumentation: openTelemetry() });
  try {
    const gate = await kit.gate(gated());
    expect(gate.kind).toBe('refused');
  } finally {
    await kit.close();
  }
});

test('a meter provider registered after the kit was made records from its next event on', async () => {
  const kit = createVerifyKit({ ...kitOptions, instrumentation: openTelemetry() });
  const sdk = inMemorySdk();
  try {
    await kit.gate(gated()); // before: the no-op meter
    expect(metrics.setGlobalMeterProvider(sdk.meterProvider)).toBe(true);
    await kit.gate(gated());
    const series = await sdk.collect();
    const refused = { result: 'refused', reason: 'no-binding' };
    expect(pointValue(series.get(METRICS.gateDecisions.name), refused)).toBe(1);
  } finally {
    await kit.close();
    await sdk.shutdown();
  }
});

test('a listener that throws is logged once and never reaches a request', async () => {
  const warnings: string[] = [];
  const kit = createVerifyKit({
    ...kitOptions,
    logger: { warn: (message) => warnings.push(message) },
    instrumentation: () => {
      throw new Error('a broken listener');
    },
  });
  try {
    for (let i = 0; i < 3; i++) expect((await kit.gate(gated())).kind).toBe('refused');
    expect(warnings.filter((line) => line.startsWith('instrumentation threw'))).toHaveLength(1);
  } finally {
    await kit.close();
  }
});
