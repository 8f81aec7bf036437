import { afterEach, describe, expect, it, vi } from 'vitest';
import { BoundedMap, SWEEP_INTERVAL_MS } from '../src/shared/lru.js';

// Every per-user memory of the kit (status reads, hints, replay ids, decisions written, creations) is
// one of these, on lru-cache: a flood of users must not grow the process, and memory must follow the
// time to live.
describe('BoundedMap (lru-cache)', () => {
  it('keeps at most maxEntries, dropping the least recently used', () => {
    const map = new BoundedMap<string, number>(3);
    for (const [i, key] of ['a', 'b', 'c', 'd'].entries()) map.set(key, i);
    expect(map.size).toBe(3);
    expect(map.get('a')).toBeUndefined();
    map.set('b', 10);
    map.set('e', 4);
    expect([map.get('b'), map.get('c'), map.get('d'), map.get('e')]).toEqual([10, undefined, 3, 4]);
  });

  it('a flood of distinct keys stays within the bound', () => {
    const map = new BoundedMap<string, true>(1_000);
    for (let i = 0; i < 100_000; i++) map.set(`flood-${i}`, true);
    expect(map.size).toBe(1_000);
    expect(map.get('flood-99999')).toBe(true);
    expect(map.get('flood-0')).toBeUndefined();
  });

  it('forgets an entry once its time to live has passed, on the clock it is given', () => {
    let now = 1_000;
    const map = new BoundedMap<string, string>(10, 100, () => now);
    map.set('a', 'x');
    now += 100;
    expect(map.get('a')).toBe('x');
    now += 1;
    expect(map.get('a')).toBeUndefined();
    expect(map.has('a')).toBe(false);
  });

  it('a per-entry time to live overrides the map’s', () => {
    let now = 1_000;
    const map = new BoundedMap<string, string>(10, 100, () => now);
    map.set('short', 'x', 10);
    map.set('long', 'y', 1_000);
    now += 50;
    expect([map.get('short'), map.get('long')]).toEqual([undefined, 'y']);
  });

  it('releases expired entries when traffic stops: nothing read, nothing set', () => {
    vi.useFakeTimers();
    let now = 1_000;
    const map = new BoundedMap<number, string>(100_000, 10_000, () => now);
    for (let i = 0; i < 5_000; i++) map.set(i, 'session data');
    now += 10_001;
    vi.advanceTimersByTime(SWEEP_INTERVAL_MS);
    expect(map.size).toBe(0);
  });
});

afterEach(() => {
  vi.useRealTimers();
});
