import { describe, expect, it } from 'vitest';
import { harness } from './helpers.js';

describe('expiry and eviction (docs/architecture.md, decision 3)', () => {
  it('after duration minutes the session cannot be opened or submitted to; the status stays readable', async () => {
    const t = await harness({ now: () => Date.parse('2030-01-01T00:00:00Z') });
    try {
      const s = await t.createSession({ duration: 5 });
      const approved = await t.createSession({ duration: 5 });
      await t.submit(approved.id);
      expect(await t.reviewed(approved.id, approved.identificationId)).toBe('APPROVED');

      t.sandbox.advanceClock(5 * 60_000 - 1);
      expect((await t.request('GET', `/sandbox/sessions/${s.id}`, { key: null })).status).toBe(200);
      t.sandbox.advanceClock(1);
      for (const path of [`/sandbox/sessions/${s.id}`, `/sandbox/sessions/by-code/${s.sessionCode}`]) {
        const res = await t.request('GET', path, { key: null });
        expect(res.status, path).toBe(410);
        expect(res.body.error.code).toBe('SESSION_EXPIRED');
      }
      const submit = await t.submit(s.id);
      expect(submit.status).toBe(410);
      expect((await t.read(s.identificationId)).body.status).toBe('IN_AUTOMATIC_REVIEW');
      expect((await t.read(approved.identificationId)).body.status).toBe('APPROVED');
    } finally {
      await t.sandbox.close();
    }
  });

  it('POST /sandbox/clock/advance moves the clock (key required, ms validated)', async () => {
    const t = await harness();
    try {
      const s = await t.createSession({ duration: 1 });
      expect(
        (await t.request('POST', '/sandbox/clock/advance', { json: { ms: 60_000 }, key: null })).status,
      ).toBe(401);
      for (const json of [{ ms: -1 }, { ms: 'soon' }, { ms: 1.5 }, {}]) {
        const bad = await t.request('POST', '/sandbox/clock/advance', { json });
        expect(bad.status).toBe(400);
        expect(bad.body.error.code).toBe('INVALID_REQUEST');
      }
      const before = Date.parse((await t.request('GET', '/sandbox/clock', { key: null })).body.now);
      const res = await t.request('POST', '/sandbox/clock/advance', { json: { ms: 60_000 } });
      expect(res.status).toBe(200);
      expect(Date.parse(res.body.now) - before).toBeGreaterThanOrEqual(60_000);
      expect((await t.request('GET', `/sandbox/sessions/${s.id}`, { key: null })).status).toBe(410);
    } finally {
      await t.sandbox.close();
    }
  });

  it('evicts an identification retentionMs after its session expired, and frees its code', async () => {
    const t = await harness({ retentionMs: 60_000 });
    try {
      const s = await t.createSession({ duration: 1 });
      t.sandbox.advanceClock(60_000);
      expect((await t.read(s.identificationId)).status).toBe(200);
      t.sandbox.advanceClock(60_000);
      const gone = await t.read(s.identificationId);
      expect(gone.status).toBe(404);
      expect(
        (await t.request('GET', `/sandbox/sessions/by-code/${s.sessionCode}`, { key: null })).status,
      ).toBe(404);
      expect((await t.request('GET', `/api/v1/verification-sessions/${s.id}/qr-code`)).status).toBe(404);
    } finally {
      await t.sandbox.close();
    }
  });

  it('keeps at most maxSessions, evicting the oldest', async () => {
    const t = await harness({ maxSessions: 3 });
    try {
      const sessions = [];
      for (let i = 0; i < 5; i++) sessions.push(await t.createSession());
      const statuses = await Promise.all(
        sessions.map(async (s) => (await t.read(s.identificationId)).status),
      );
      expect(statuses).toEqual([404, 404, 200, 200, 200]);
    } finally {
      await t.sandbox.close();
    }
  });
});
