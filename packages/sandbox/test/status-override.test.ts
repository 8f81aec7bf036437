import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.sandbox.close());

const setStatus = (identificationId: string, json: unknown, key?: string | null) =>
  h.request('POST', `/sandbox/identifications/${identificationId}/status`, {
    json,
    ...(key === undefined ? {} : { key }),
  });

async function approved() {
  const s = await h.createSession();
  expect((await h.submit(s.id)).status).toBe(202);
  expect(await h.reviewed(s.id, s.identificationId)).toBe('APPROVED');
  return s;
}

describe('POST /sandbox/identifications/:id/status (the control override): sets any status', () => {
  it('revokes an approval: APPROVED -> REJECTED, read back through /api/v1', async () => {
    const s = await approved();
    const res = await setStatus(s.identificationId, { status: 'REJECTED' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: s.identificationId, status: 'REJECTED', previousStatus: 'APPROVED' });
    const read = await h.read(s.identificationId);
    expect(read.body).toMatchObject({ status: 'REJECTED', documentSubmitted: true });
  });

  it.each([
    ['REJECTED', 'APPROVED'],
    ['APPROVED', 'IN_MANUAL_REVIEW'],
    ['APPROVED', 'IN_AUTOMATIC_REVIEW'],
    ['REJECTED', 'RESUBMISSION_REQUIRED'],
    ['IN_MANUAL_REVIEW', 'APPROVED'],
  ])('sets any status from any state: %s -> %s', async (from, to) => {
    const s = await approved();
    if (from !== 'APPROVED') expect((await setStatus(s.identificationId, { status: from })).status).toBe(200);
    const res = await setStatus(s.identificationId, { status: to });
    expect(res.status).toBe(200);
    expect(res.body.previousStatus).toBe(from);
    expect((await h.read(s.identificationId)).body.status).toBe(to);
  });

  it('works before any document: no submission is accepted after a final status', async () => {
    const s = await h.createSession();
    expect((await setStatus(s.identificationId, { status: 'APPROVED' })).status).toBe(200);
    const view = await h.request('GET', `/sandbox/sessions/${s.id}`, { key: null });
    expect(view.body).toMatchObject({ status: 'APPROVED', canSubmit: false });
    const submit = await h.submit(s.id);
    expect(submit.status).toBe(409);
    expect(submit.body.error.code).toBe('SUBMISSION_NOT_ALLOWED');
  });
});

describe('POST /sandbox/identifications/:id/status: with submissions, reviews and expiry', () => {
  it('RESUBMISSION_REQUIRED reopens submissions after a final decision', async () => {
    const s = await approved();
    await setStatus(s.identificationId, { status: 'RESUBMISSION_REQUIRED' });
    expect((await h.submit(s.id, { scenario: 'reject' })).status).toBe(202);
    expect(await h.reviewed(s.id, s.identificationId)).toBe('REJECTED');
  });

  it('cancels a running automatic review, which then cannot overwrite the status', async () => {
    const slow = await harness({ reviewDelayMs: 50 });
    try {
      const s = await slow.createSession();
      expect((await slow.submit(s.id)).status).toBe(202);
      const res = await slow.request('POST', `/sandbox/identifications/${s.identificationId}/status`, {
        json: { status: 'REJECTED' },
      });
      expect(res.body).toEqual({
        id: s.identificationId,
        status: 'REJECTED',
        previousStatus: 'IN_AUTOMATIC_REVIEW',
      });
      const view = await slow.request('GET', `/sandbox/sessions/${s.id}`, { key: null });
      expect(view.body.inReview).toBe(false);
      // Past the review delay, the cancelled review has not turned it into APPROVED.
      await new Promise((r) => setTimeout(r, 120));
      expect((await slow.read(s.identificationId)).body.status).toBe('REJECTED');
    } finally {
      await slow.sandbox.close();
    }
  });

  it('still works after the session expired (the identification stays readable)', async () => {
    const t = await harness();
    try {
      const s = await t.createSession({ duration: 1 });
      await t.submit(s.id);
      expect(await t.reviewed(s.id, s.identificationId)).toBe('APPROVED');
      t.sandbox.advanceClock(60_000);
      const res = await t.request('POST', `/sandbox/identifications/${s.identificationId}/status`, {
        json: { status: 'REJECTED' },
      });
      expect(res.status).toBe(200);
      expect((await t.read(s.identificationId)).body.status).toBe('REJECTED');
    } finally {
      await t.sandbox.close();
    }
  });
});

describe('POST /sandbox/identifications/:id/status: refusals', () => {
  it('needs the key: 401 UNAUTHORIZED without it or with a wrong one, status unchanged', async () => {
    const s = await approved();
    for (const key of [null, 'wrong-key']) {
      const res = await setStatus(s.identificationId, { status: 'REJECTED' }, key);
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('UNAUTHORIZED');
      expect(res.text).not.toContain(h.sandbox.apiKey);
    }
    expect((await h.read(s.identificationId)).body.status).toBe('APPROVED');
  });

  it('answers 400 INVALID_REQUEST for a status that is not one of the five, status unchanged', async () => {
    const s = await approved();
    for (const body of [
      { status: 'approved' },
      { status: 'REVOKED' },
      { status: '' },
      { status: 42 },
      {},
      { status: 'REJECTED', reason: 'x' },
      ['REJECTED'],
    ]) {
      const res = await setStatus(s.identificationId, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('INVALID_REQUEST');
    }
    const notJson = await h.request('POST', `/sandbox/identifications/${s.identificationId}/status`, {
      body: '{"status":',
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.status).toBe(400);
    expect(notJson.body.error.code).toBe('INVALID_JSON');
    expect((await h.read(s.identificationId)).body.status).toBe('APPROVED');
  });

  it('answers 404 NOT_FOUND for an unknown identification', async () => {
    const res = await setStatus('c3b0c2f4-1111-4222-8333-444455556666', { status: 'REJECTED' });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });
});
