import { describe, expect, it } from 'vitest';
import { backoffDelay, sleep } from '../src/retry.js';

describe('backoffDelay (full jitter, capped)', () => {
  it.each([
    [0, 100],
    [1, 200],
    [3, 800],
    [5, 2000],
    [30, 2000],
  ])('attempt %i stays below %i ms', (attempt, ceiling) => {
    expect(backoffDelay(attempt, 100, 2000, () => 0)).toBe(0);
    expect(backoffDelay(attempt, 100, 2000, () => 0.999999)).toBe(ceiling - 1);
  });
});

describe('sleep', () => {
  it('rejects with the reason when aborted, before or during the wait', async () => {
    const reason = new Error('stop');
    await expect(sleep(10, AbortSignal.abort(reason))).rejects.toBe(reason);
    const controller = new AbortController();
    const waiting = sleep(60_000, controller.signal);
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    await expect(sleep(1)).resolves.toBeUndefined();
  });
});
