import { describe, expect, it } from 'vitest';
import { medianInterval } from '../src/stats.js';

describe('medianInterval', () => {
  it('brackets the median by the sign test’s order statistics, whatever the order of the samples', () => {
    const samples = Array.from({ length: 24 }, (_, i) => (i * 7) % 24); // 0..23, shuffled
    // P(Binomial(24, 1/2) <= 6) = 0.011 <= 0.025 < P(<= 7): the 7th and 18th smallest.
    expect(medianInterval(samples)).toEqual({ low: 6, high: 17 });
    // 12 samples (0 1 4 5 7 8 11 14 15 18 21 22): P(<= 2) = 0.019, the 3rd and the 10th.
    expect(medianInterval(samples.slice(0, 12))).toEqual({ low: 4, high: 18 });
  });

  it('gives no interval where the samples cannot reach the confidence', () => {
    // Five samples: even the smallest and the largest hold the median with 1 - 2/32 = 0.94 only.
    expect(medianInterval([1, 2, 3, 4, 5])).toBeUndefined();
    expect(medianInterval([1, 2, 3, 4, 5, 6])).toEqual({ low: 1, high: 6 });
    expect(medianInterval([])).toBeUndefined();
  });
});
