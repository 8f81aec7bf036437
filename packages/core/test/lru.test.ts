import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BoundedMap, SWEEP_INTERVAL_MS } from '../src/shared/lru.js';

// Every per-user memory of the kit (status reads, hints, replay ids, decisions written, creations) is
// one of these (our own LRU, Web APIs only): a flood of users must not grow the process, and memory
// must follow the time to live.
describe('BoundedMap', () => {
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

  it('a read makes an entry the most recently used, a has() or a miss does not', () => {
    const map = new BoundedMap<string, number>(3);
    for (const [i, key] of ['a', 'b', 'c'].entries()) map.set(key, i);
    expect(map.get('a')).toBe(0);
    expect(map.has('b')).toBe(true);
    expect(map.get('zz')).toBeUndefined();
    map.set('d', 3);
    expect([map.has('a'), map.has('b'), map.has('c'), map.has('d')]).toEqual([true, false, true, true]);
  });

  it('setting a key again makes it the most recently used and starts its time to live again', () => {
    let now = 1_000;
    const map = new BoundedMap<string, string>(2, 100, () => now);
    map.set('a', 'x');
    map.set('b', 'y');
    now += 80;
    map.set('a', 'x2');
    map.set('c', 'z');
    expect([map.get('a'), map.get('b'), map.get('c'), map.size]).toEqual(['x2', undefined, 'z', 2]);
    now += 80;
    expect(map.get('a')).toBe('x2');
    now += 21;
    expect(map.get('a')).toBeUndefined();
  });

  it('expires on a clock that starts at 0, and drops what has() finds expired', () => {
    let now = 0;
    const map = new BoundedMap<string, string>(10, 100, () => now);
    map.set('a', 'x');
    now = 101;
    expect(map.size).toBe(1);
    expect(map.has('a')).toBe(false);
    expect(map.size).toBe(0);
  });

  it('a map without a time to live never reads the clock nor starts a timer', () => {
    vi.useFakeTimers();
    const now = vi.fn(() => 1_000);
    const map = new BoundedMap<string, number>(2, Number.POSITIVE_INFINITY, now);
    for (let i = 0; i < 5; i++) map.set(`k${i}`, i);
    expect([map.get('k4'), map.has('k3'), map.size]).toEqual([4, true, 2]);
    expect(now).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('entries given their own time to live in a map without one are swept too', () => {
    vi.useFakeTimers();
    let now = 1_000;
    const map = new BoundedMap<string, string>(100, Number.POSITIVE_INFINITY, () => now);
    map.set('forever', 'x');
    map.set('zero is forever', 'x', 0);
    for (let i = 0; i < 10; i++) map.set(`short-${i}`, 'y', 500);
    now += 501;
    vi.advanceTimersByTime(SWEEP_INTERVAL_MS);
    expect(map.size).toBe(2);
    expect([map.get('forever'), map.get('zero is forever')]).toEqual(['x', 'x']);
  });

  it('answers as a plain list ordered by use would, whatever is done to it', () => {
    type Op =
      | { op: 'set'; key: number; ttl: number | undefined }
      | { op: 'get' | 'has' | 'delete'; key: number }
      | { op: 'tick'; ms: number }
      | { op: 'sweep' | 'clear' };
    const key = fc.integer({ min: 0, max: 12 });
    const op: fc.Arbitrary<Op> = fc.oneof(
      {
        weight: 4,
        arbitrary: fc.record({
          op: fc.constant('set' as const),
          key,
          ttl: fc.option(fc.integer({ min: -5, max: 40 }), { nil: undefined }),
        }),
      },
      {
        weight: 4,
        arbitrary: fc.record({ op: fc.constantFrom('get' as const, 'has' as const, 'delete' as const), key }),
      },
      {
        weight: 2,
        arbitrary: fc.record({ op: fc.constant('tick' as const), ms: fc.integer({ min: 0, max: 15 }) }),
      },
      { weight: 1, arbitrary: fc.record({ op: fc.constantFrom('sweep' as const, 'clear' as const) }) },
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.constantFrom(0, 10, Number.POSITIVE_INFINITY),
        fc.array(op, { maxLength: 80 }),
        (max, ttl, ops) => {
          let now = 0;
          const map = new BoundedMap<number, number>(max, ttl, () => now);
          // The model: entries from the least to the most recently used.
          let list: { key: number; value: number; expiresAt: number }[] = [];
          const expired = (entry: { expiresAt: number }) => now > entry.expiresAt;
          const find = (k: number) => {
            const entry = list.find((e) => e.key === k);
            if (entry !== undefined && expired(entry)) list = list.filter((e) => e !== entry);
            return entry !== undefined && !expired(entry) ? entry : undefined;
          };
          for (const [i, step] of ops.entries()) {
            if (step.op === 'set') {
              const t = step.ttl ?? ttl;
              const expiresAt =
                t === 0 || t === Number.POSITIVE_INFINITY ? Number.POSITIVE_INFINITY : now + t;
              map.set(step.key, i, step.ttl);
              list = list.filter((e) => e.key !== step.key);
              if (list.length >= max) list.shift();
              list.push({ key: step.key, value: i, expiresAt });
            } else if (step.op === 'get') {
              const entry = find(step.key);
              if (entry !== undefined) list = [...list.filter((e) => e !== entry), entry];
              expect(map.get(step.key)).toBe(entry?.value);
            } else if (step.op === 'has') {
              expect(map.has(step.key)).toBe(find(step.key) !== undefined);
            } else if (step.op === 'delete') {
              map.delete(step.key);
              list = list.filter((e) => e.key !== step.key);
            } else if (step.op === 'tick') {
              now += step.ms;
            } else if (step.op === 'sweep') {
              map.sweep();
              list = list.filter((e) => !expired(e));
            } else {
              map.clear();
              list = [];
            }
            expect(map.size).toBe(list.length);
          }
          for (const entry of list) expect(map.has(entry.key)).toBe(!expired(entry));
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('refuses a bound that is not a positive integer, and a negative time to live', () => {
    expect(() => new BoundedMap(0)).toThrow(RangeError);
    expect(() => new BoundedMap(1.5)).toThrow(RangeError);
    expect(() => new BoundedMap(10, -1)).toThrow(RangeError);
  });
});

afterEach(() => {
  vi.useRealTimers();
});
