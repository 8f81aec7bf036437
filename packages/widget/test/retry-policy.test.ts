import { describe, expect, it } from 'vitest';
import { backoff, MAX_DELAY_MS, retryDelay, startRetryDelay } from '../src/retry-policy.js';

describe('the retry policy (one for the element and for the chaos run)', () => {
  it('asks a 409, a 429 and a 503 on creation again after 1, 2, then 4 s (±25 %), four tries in all', () => {
    for (const status of [409, 429, 503]) {
      const waits = [1, 2, 3, 4].map((attempt) => startRetryDelay({ status }, attempt));
      expect(waits[3], `${status}`).toBeUndefined();
      waits.slice(0, 3).forEach((wait, i) => {
        expect(wait).toBeGreaterThanOrEqual(750 * 2 ** i);
        expect(wait).toBeLessThanOrEqual(1250 * 2 ** i);
      });
    }
  });

  it('shows at once: another status, a Retry-After over 5 s, a 503 on a send', () => {
    expect(startRetryDelay({ status: 500 }, 1)).toBeUndefined();
    expect(startRetryDelay({ status: 0 }, 1)).toBeUndefined();
    expect(startRetryDelay({ status: 503, retryAfterMs: 120_000 }, 1)).toBeUndefined();
    expect(startRetryDelay({ status: 503 }, 1, true)).toBeUndefined();
    expect(startRetryDelay({ status: 429, retryAfterMs: 3000 }, 1, true)).toBe(3000);
  });

  it('waits Retry-After, never sooner than the backoff, never longer than MAX_DELAY_MS', () => {
    expect(retryDelay({ status: 429, retryAfterMs: 0 }, 800)).toBe(800);
    expect(retryDelay({ status: 429, retryAfterMs: 10 * MAX_DELAY_MS }, 800)).toBe(MAX_DELAY_MS);
    expect(backoff(2000, 30)).toBeLessThanOrEqual(1.25 * MAX_DELAY_MS);
  });
});
