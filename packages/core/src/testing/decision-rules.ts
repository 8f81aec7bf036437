import { describe, expect, it } from 'vitest';
import type { StoredDecision } from '../bindings/binding-store.js';
import { type Subject, unique, until } from './fixtures.js';

/** The retired marker (decisions.ts): a decision no later one may overwrite, until it expires. */
const RETIRED_AT = Number.MAX_SAFE_INTEGER;
const TTL_MS = 3_600_000;

const decision = (at: number, overrides: Partial<StoredDecision> = {}): StoredDecision => ({
  status: 'APPROVED',
  at,
  source: 'read',
  ...overrides,
});

/** Decisions: newer wins (a tie stores), whole decisions, the retired marker, expiry after ttlMs. */
export function describeDecisionRules(subject: Subject): void {
  describe('decisions', () => {
    it('answers undefined for a key never put, and deleting it is no error', async () => {
      const key = unique();
      expect(await subject.records.decisions.get(key)).toBeUndefined();
      await subject.records.decisions.delete(key);
    });

    it('answers a decision whole: a null status, the source, reReadAfterMs', async () => {
      const [first, second] = [unique(), unique()];
      const changed = decision(Date.now(), { status: null, source: 'webhook' });
      const overriding = decision(Date.now(), { reReadAfterMs: 5000 });
      expect(await subject.records.decisions.put(first, changed, TTL_MS)).toBe(true);
      expect(await subject.records.decisions.put(second, overriding, TTL_MS)).toBe(true);
      expect(await subject.records.decisions.get(first)).toStrictEqual(changed);
      expect(await subject.records.decisions.get(second)).toStrictEqual(overriding);
    });

    it('newer wins: an older decision is refused and changes nothing; a tie and a newer one store', async () => {
      const key = unique();
      const at = Date.now();
      expect(await subject.records.decisions.put(key, decision(at), TTL_MS)).toBe(true);
      expect(await subject.records.decisions.put(key, decision(at - 1, { status: 'REJECTED' }), TTL_MS)).toBe(
        false,
      );
      expect(await subject.records.decisions.get(key)).toStrictEqual(decision(at));
      const tie = decision(at, { status: 'IN_MANUAL_REVIEW', source: 'webhook' });
      expect(await subject.records.decisions.put(key, tie, TTL_MS)).toBe(true);
      expect(await subject.records.decisions.get(key)).toStrictEqual(tie);
      const newer = decision(at + 1, { status: 'REJECTED' });
      expect(await subject.records.decisions.put(key, newer, TTL_MS)).toBe(true);
      expect(await subject.records.decisions.get(key)).toStrictEqual(newer);
    });

    it('keeps the retired marker (at = Number.MAX_SAFE_INTEGER) exactly, and no later read overwrites it', async () => {
      const key = unique();
      await subject.records.decisions.put(key, decision(Date.now()), TTL_MS);
      const retired = decision(RETIRED_AT, { status: null, source: 'webhook' });
      expect(await subject.records.decisions.put(key, retired, TTL_MS)).toBe(true);
      expect(await subject.records.decisions.put(key, decision(Date.now() + DAY), TTL_MS)).toBe(false);
      const read = await subject.records.decisions.get(key);
      expect(read).toStrictEqual(retired);
      expect(read?.at === RETIRED_AT).toBe(true);
    });

    it('deletes a decision: any decision then stores again', async () => {
      const key = unique();
      await subject.records.decisions.put(key, decision(Date.now() + DAY), TTL_MS);
      await subject.records.decisions.delete(key);
      expect(await subject.records.decisions.get(key)).toBeUndefined();
      expect(await subject.records.decisions.put(key, decision(Date.now()), TTL_MS)).toBe(true);
    });

    it('drops a decision after its ttlMs, and an expired one holds no older one back', async () => {
      const key = unique();
      const at = Date.now();
      expect(await subject.records.decisions.put(key, decision(at + DAY), 1)).toBe(true);
      await until(
        async () => (await subject.records.decisions.get(key)) === undefined,
        'the decision expires',
      );
      expect(await subject.records.decisions.put(key, decision(at), TTL_MS)).toBe(true);
      expect(await subject.records.decisions.get(key)).toStrictEqual(decision(at));
    });
  });
}

const DAY = 86_400_000;
