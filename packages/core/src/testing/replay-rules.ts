import { describe, expect, it } from 'vitest';
import { type Subject, unique, until } from './fixtures.js';

/** The replay store: a webhook id is claimed once while its record lives, whatever its length. */
export function describeReplayRules(subject: Subject): void {
  describe('webhook ids (the replay store)', () => {
    it('claims an id once: true, then false; another id is its own', async (context) => {
      if (subject.replay === undefined) return context.skip('this store holds no webhook ids');
      const id = unique('msg_');
      expect(await subject.replay.claim(id, 600)).toBe(true);
      expect(await subject.replay.claim(id, 600)).toBe(false);
      expect(await subject.replay.claim(unique('msg_'), 600)).toBe(true);
    });

    it('claims ids of any length and content (a custom verifier’s)', async (context) => {
      if (subject.replay === undefined) return context.skip('this store holds no webhook ids');
      const long = `${unique('msg_')}:${'ü✓'.repeat(1000)}`;
      expect(await subject.replay.claim(long, 600)).toBe(true);
      expect(await subject.replay.claim(long, 600)).toBe(false);
      expect(await subject.replay.claim(`${long}x`, 600)).toBe(true);
    });

    it('claims an id again once its ttlSeconds are over (rounded up to the store’s resolution: Redis’s is 1 s)', async (context) => {
      if (subject.replay === undefined) return context.skip('this store holds no webhook ids');
      const replay = subject.replay;
      const id = unique('msg_');
      expect(await replay.claim(id, 0.05)).toBe(true);
      await until(() => replay.claim(id, 600), 'the id is claimed again');
      expect(await replay.claim(id, 600)).toBe(false);
    });
  });
}
