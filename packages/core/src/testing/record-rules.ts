import { describe, expect, it } from 'vitest';
import { bindingExpiresAt, statusRecordExpiresAt } from '../bindings/retention.js';
import { aBinding, aStatusRecord, DAY_MS, type Subject, unique } from './fixtures.js';

const iso = (at: number) => new Date(at).toISOString();

/** Bindings: kept whole under any key the kit uses, replaced, deleted, expired by retention. */
export function describeBindingRules(subject: Subject): void {
  describe('bindings', () => {
    it('answers undefined for a key never set, and deleting it is no error', async () => {
      const key = unique();
      expect(await subject.records.bindings.get(key)).toBeUndefined();
      await subject.records.bindings.delete(key);
    });

    it('answers a binding whole, every field as it was set', async () => {
      const key = unique('account-');
      const binding = aBinding();
      await subject.records.bindings.set(key, binding);
      expect(await subject.records.bindings.get(key)).toStrictEqual(binding);
    });

    it('keeps keys the kit uses apart: an anonymous visitor’s, ~300 characters, case, quotes, Unicode', async () => {
      const keys = [
        `anonymous-visitor:${crypto.randomUUID()}`,
        `${unique('acct-')}-${'é'.repeat(120)}-${'x'.repeat(120)}-✓`,
        `${unique('Case-')}`,
        `${unique('o\'brien"; DROP TABLE verify_kit_bindings; --')}`,
        `${unique('%_*?')}`,
      ];
      keys.push(keys[2]?.toLowerCase() ?? '');
      const bindings = keys.map(() => aBinding());
      for (const [index, key] of keys.entries()) await subject.records.bindings.set(key, bindings[index]!);
      for (const [index, key] of keys.entries()) {
        expect(await subject.records.bindings.get(key), key).toStrictEqual(bindings[index]);
      }
    });

    it('replaces a binding (a new verification of the account), and deletes it', async () => {
      const key = unique('account-');
      await subject.records.bindings.set(key, aBinding());
      // A binding not approved yet, of an account: neither optional field.
      const { approvedAt: _approvedAt, proof: _proof, ...next } = aBinding();
      await subject.records.bindings.set(key, next);
      expect(await subject.records.bindings.get(key)).toStrictEqual(next);
      await subject.records.bindings.delete(key);
      expect(await subject.records.bindings.get(key)).toBeUndefined();
    });

    it('never answers a binding past bindingExpiresAt (its session’s end + approvedMs), and answers one before', async () => {
      const { approvedMs } = subject.retention;
      const expired = aBinding({ expiresAt: iso(Date.now() - approvedMs - DAY_MS) });
      const living = aBinding({ expiresAt: iso(Date.now() - approvedMs + DAY_MS) });
      expect(bindingExpiresAt(expired, subject.retention)).toBeLessThan(Date.now());
      const [gone, kept] = [unique(), unique()];
      await subject.records.bindings.set(gone, expired);
      await subject.records.bindings.set(kept, living);
      expect(await subject.records.bindings.get(gone)).toBeUndefined();
      expect(await subject.records.bindings.get(kept)).toStrictEqual(living);
    });
  });
}

/** Status records: compare-and-set from none or from a status, whole records, retention. */
export function describeStatusRules(subject: Subject): void {
  describe('status records', () => {
    it('compareAndSet from none stores once; a second from none is refused and changes nothing', async () => {
      const key = unique();
      expect(await subject.records.statusRecords.get(key)).toBeUndefined();
      const first = aStatusRecord('IN_AUTOMATIC_REVIEW');
      expect(await subject.records.statusRecords.compareAndSet(key, undefined, first)).toBe(true);
      expect(
        await subject.records.statusRecords.compareAndSet(key, undefined, aStatusRecord('APPROVED')),
      ).toBe(false);
      expect(await subject.records.statusRecords.get(key)).toStrictEqual(first);
    });

    it('compareAndSet from a status stores only over that status, each transition in turn', async () => {
      const key = unique();
      const steps = ['IN_AUTOMATIC_REVIEW', 'IN_MANUAL_REVIEW', 'APPROVED', 'REJECTED'];
      let previous: string | undefined;
      for (const status of steps) {
        const next = aStatusRecord(status);
        expect(await subject.records.statusRecords.compareAndSet(key, 'NOT_THE_STATUS', next)).toBe(false);
        expect(await subject.records.statusRecords.compareAndSet(key, previous, next)).toBe(true);
        expect(await subject.records.statusRecords.get(key)).toStrictEqual(next);
        previous = status;
      }
    });

    it('answers a record whole, with fields the kit may add (previousStatus, a delivery marker)', async () => {
      const key = unique();
      const record = aStatusRecord('APPROVED', { accountId: 'ada' });
      await subject.records.statusRecords.compareAndSet(key, undefined, record);
      const read = await subject.records.statusRecords.get(key);
      expect(read).toStrictEqual(record);
      expect(read).toHaveProperty('previousStatus', 'IN_AUTOMATIC_REVIEW');
      expect(read).toHaveProperty('delivery.attempt', 2);
    });

    it('deletes a record: compareAndSet from none then stores again', async () => {
      const key = unique();
      await subject.records.statusRecords.compareAndSet(key, undefined, aStatusRecord('REJECTED'));
      await subject.records.statusRecords.delete(key);
      expect(await subject.records.statusRecords.get(key)).toBeUndefined();
      await subject.records.statusRecords.delete(unique());
      expect(
        await subject.records.statusRecords.compareAndSet(key, undefined, aStatusRecord('APPROVED')),
      ).toBe(true);
    });

    it('keeps a record pendingMs (not APPROVED) or approvedMs (APPROVED) after the later of its session’s end and its change', async () => {
      const { pendingMs, approvedMs } = subject.retention;
      const longAgo = Date.now() - pendingMs - DAY_MS;
      const old = { expiresAt: iso(longAgo), observedAt: longAgo };
      const pending = aStatusRecord('IN_MANUAL_REVIEW', old);
      const approved = aStatusRecord('APPROVED', old);
      expect(statusRecordExpiresAt(pending, subject.retention)).toBeLessThan(Date.now());
      expect(approvedMs).toBeGreaterThan(pendingMs + DAY_MS);
      const [gone, kept] = [unique(), unique()];
      await subject.records.statusRecords.compareAndSet(gone, undefined, pending);
      await subject.records.statusRecords.compareAndSet(kept, undefined, approved);
      expect(await subject.records.statusRecords.get(gone)).toBeUndefined();
      expect(await subject.records.statusRecords.get(kept)).toStrictEqual(approved);
    });

    it('counts an expired record as none: compareAndSet from its status is refused, from none stores', async () => {
      const longAgo = Date.now() - subject.retention.pendingMs - DAY_MS;
      const key = unique();
      const expired = aStatusRecord('IN_MANUAL_REVIEW', { expiresAt: iso(longAgo), observedAt: longAgo });
      await subject.records.statusRecords.compareAndSet(key, undefined, expired);
      const next = aStatusRecord('APPROVED');
      expect(await subject.records.statusRecords.compareAndSet(key, 'IN_MANUAL_REVIEW', next)).toBe(false);
      expect(await subject.records.statusRecords.compareAndSet(key, undefined, next)).toBe(true);
      expect(await subject.records.statusRecords.get(key)).toStrictEqual(next);
    });
  });
}
