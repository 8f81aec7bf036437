import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, type Harness, harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness({ rateLimit: { requests: 3, windowMs: 10_000 } });
});
afterAll(() => h.sandbox.close());

describe('rate limit (docs/architecture.md, decision 14)', () => {
  it('answers 429 RATE_LIMITED with Retry-After beyond the limit, then lets requests through again', async () => {
    const statuses: number[] = [];
    let last: Answer | undefined;
    for (let i = 0; i < 5; i++) {
      last = await h.request('GET', '/api/v1/identifications/0d6f1c1e-0000-4000-8000-000000000000');
      statuses.push(last.status);
    }
    expect(statuses).toEqual([404, 404, 404, 429, 429]);
    expect(last?.body.error.code).toBe('RATE_LIMITED');
    const retryAfter = Number(last?.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(10);

    // Creation is limited too; the control API and pages are not.
    const create = await h.request('POST', '/api/v1/verification-sessions', {
      json: { workflowId: 'default', locale: 'en', sendOTP: false },
    });
    expect(create.status).toBe(429);
    expect((await h.request('GET', '/sandbox/test-documents', { key: null })).status).toBe(200);

    h.sandbox.advanceClock(10_000);
    const again = await h.request('POST', '/api/v1/verification-sessions', {
      json: { workflowId: 'default', locale: 'en', sendOTP: false },
    });
    expect(again.status).toBe(201);
  });

  it('is off unless configured', async () => {
    const free = await harness();
    try {
      for (let i = 0; i < 20; i++) {
        expect((await free.request('GET', '/api/v1/identifications/x')).status).toBe(404);
      }
    } finally {
      await free.sandbox.close();
    }
  });
});
