import { afterEach, describe, expect, it, vi } from 'vitest';
import { BoundedMap, SWEEP_INTERVAL_MS } from '../src/lru.js';

// Every per-user memory of the kit (status reads, hints, replay ids, rotations, creations) is one of
// these: a flood of users must not grow the process, and memory must follow the time to live.
describe('BoundedMap', () => {
  it('keeps at most maxEntries, dropping the least recently set', () => {
    const map = new BoundedMap<string, number>(3);
    for (const [i, key] of ['a', 'b', 'c', 'd'].entries()) map.set(key, i);
    expect(map.size).toBe(3);
    expect(map.get('a')).toBeUndefined();
    map.set('b', 10);
    map.set('e', 4);
    expect([map.get('b'), map.get('c'), map.get('d'), map.get('e')]).toEqual([10, undefined, 3, 4]);
  });

  it('forgets an entry once its time to live has passed', () => {
    let now = 1_000;
    const map = new BoundedMap<string, string>(10, 100, () => now);
    map.set('a', 'x');
    now += 99;
    expect(map.get('a')).toBe('x');
    now += 1;
    expect(map.get('a')).toBeUndefined();
    expect(map.has('a')).toBe(false);
  });

  it('releases expired entries when new ones arrive, even if nobody reads the old ones again', () => {
    let now = 0;
    const map = new BoundedMap<number, string>(100_000, 10_000, () => now);
    for (let i = 0; i < 5_000; i++) map.set(i, 'session data');
    expect(map.size).toBe(5_000);
    now += 10_000;
    map.set(-1, 'a later session');
    expect(map.size).toBe(1);
  });

  it('releases expired entries when traffic stops: nothing read, nothing set', () => {
    vi.useFakeTimers();
    let now = 0;
    const map = new BoundedMap<number, string>(100_000, 10_000, () => now);
    for (let i = 0; i < 5_000; i++) map.set(i, 'session data');
    now += 10_000;
    vi.advanceTimersByTime(SWEEP_INTERVAL_MS);
    expect(map.size).toBe(0);
  });
});

afterEach(() => {
  vi.useRealTimers();
});
