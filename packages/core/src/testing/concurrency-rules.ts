import { describe, expect, it } from 'vitest';
import { all, aStatusRecord, type Subject, unique } from './fixtures.js';

/** What every instance's concurrent calls must leave: one winner, the newest decision. */
export function describeConcurrencyRules(subject: Subject): void {
  describe('concurrent calls (as from several instances at once)', () => {
    it('compareAndSet from none: exactly one of the concurrent calls stores, and its record stands', async () => {
      const key = unique();
      const records = Array.from({ length: subject.concurrency }, () => aStatusRecord('IN_AUTOMATIC_REVIEW'));
      const stored = await all(subject.concurrency, (i) =>
        subject.records.statusRecords.compareAndSet(key, undefined, records[i]!),
      );
      expect(stored.filter(Boolean)).toHaveLength(1);
      expect(await subject.records.statusRecords.get(key)).toStrictEqual(records[stored.indexOf(true)]);
    });

    it('compareAndSet from one status: exactly one of the concurrent calls stores', async () => {
      const key = unique();
      await subject.records.statusRecords.compareAndSet(key, undefined, aStatusRecord('IN_MANUAL_REVIEW'));
      const records = Array.from({ length: subject.concurrency }, (_, i) => aStatusRecord(`NEXT_${i}`));
      const stored = await all(subject.concurrency, (i) =>
        subject.records.statusRecords.compareAndSet(key, 'IN_MANUAL_REVIEW', records[i]!),
      );
      expect(stored.filter(Boolean)).toHaveLength(1);
      expect(await subject.records.statusRecords.get(key)).toStrictEqual(records[stored.indexOf(true)]);
    });

    it('decisions put at once in any order: the newest stands, and its put stored', async () => {
      const key = unique();
      const base = Date.now();
      // A shuffled order of `at`s: the newest is neither first nor last to start.
      const ats = Array.from(
        { length: subject.concurrency },
        (_, i) => base + ((i * 37) % subject.concurrency),
      );
      const newest = Math.max(...ats);
      const stored = await all(subject.concurrency, (i) =>
        subject.records.decisions.put(key, { status: `S${ats[i]}`, at: ats[i]!, source: 'read' }, 3_600_000),
      );
      expect(await subject.records.decisions.get(key)).toStrictEqual({
        status: `S${newest}`,
        at: newest,
        source: 'read',
      });
      expect(stored[ats.indexOf(newest)]).toBe(true);
    });

    it('one webhook id claimed at once by every caller: exactly one wins', async (context) => {
      if (subject.replay === undefined) return context.skip('this store holds no webhook ids');
      const replay = subject.replay;
      const id = unique('msg_');
      const claimed = await all(subject.concurrency, () => replay.claim(id, 600));
      expect(claimed.filter(Boolean)).toHaveLength(1);
    });

    it('different keys at once do not disturb each other', async () => {
      const keys = Array.from({ length: subject.concurrency }, () => unique());
      const records = keys.map(() => aStatusRecord('APPROVED'));
      const stored = await all(subject.concurrency, (i) =>
        subject.records.statusRecords.compareAndSet(keys[i]!, undefined, records[i]!),
      );
      expect(stored.every(Boolean)).toBe(true);
      const read = await all(subject.concurrency, (i) => subject.records.statusRecords.get(keys[i]!));
      expect(read).toStrictEqual(records);
    });
  });
}
