import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.sandbox.close());

const decide = (identificationId: string, json: unknown, key?: string | null) =>
  h.request('POST', `/sandbox/identifications/${identificationId}/decision`, {
    json,
    ...(key === undefined ? {} : { key }),
  });

async function outcome(session: Record<string, unknown>, doc: Record<string, unknown> = {}) {
  const s = await h.createSession(session);
  const res = await h.submit(s.id, doc);
  expect(res.status).toBe(202);
  expect(res.body).toEqual({ status: 'IN_AUTOMATIC_REVIEW' });
  return { s, status: await h.reviewed(s.id, s.identificationId) };
}

const crit = (type: string, condition: string, value: string, extra: object = {}) => ({
  approvalCriteria: [{ type, condition, value, ...extra }],
});

describe('scenarios (docs/architecture.md, decision 2)', () => {
  it.each([
    [undefined, 'APPROVED'],
    ['approve', 'APPROVED'],
    ['manual_review', 'IN_MANUAL_REVIEW'],
    ['resubmit', 'RESUBMISSION_REQUIRED'],
    ['reject', 'REJECTED'],
  ])('scenario %s -> %s', async (scenario, expected) => {
    const { status } = await outcome({}, scenario === undefined ? {} : { scenario });
    expect(status).toBe(expected);
  });

  it('reviewDelayMs 0 still answers 202 IN_AUTOMATIC_REVIEW before the outcome', async () => {
    const s = await h.createSession();
    const res = await h.submit(s.id);
    expect(res.body.status).toBe('IN_AUTOMATIC_REVIEW');
  });

  it('the review waits reviewDelayMs', async () => {
    const slow = await harness({ reviewDelayMs: 60_000 });
    try {
      const s = await slow.createSession();
      await slow.submit(s.id);
      const view = await slow.request('GET', `/sandbox/sessions/${s.id}`, { key: null });
      expect(view.body).toMatchObject({ inReview: true, canSubmit: false, status: 'IN_AUTOMATIC_REVIEW' });
      const again = await slow.submit(s.id);
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe('SUBMISSION_NOT_ALLOWED');
    } finally {
      await slow.sandbox.close();
    }
  });
});

describe('approval criteria and the outcome (docs/architecture.md, decision 2)', () => {
  it('a met criterion leaves the scenario in charge', async () => {
    expect((await outcome(crit('DOCUMENT_COUNTRY', 'EQUALS', 'TUR', { rejectIfNotMet: true }))).status).toBe(
      'APPROVED',
    );
  });

  it('an unmet rejectIfNotMet criterion rejects, whatever the scenario', async () => {
    for (const scenario of ['approve', 'manual_review', 'resubmit']) {
      const r = await outcome(crit('DOCUMENT_COUNTRY', 'EQUALS', 'DEU', { rejectIfNotMet: true }), {
        scenario,
      });
      expect(r.status).toBe('REJECTED');
    }
  });

  it('an unmet criterion without rejectIfNotMet sends an approval to manual review', async () => {
    expect((await outcome(crit('DOCUMENT_OWNER_SURNAME', 'EQUALS', 'YILMAZ'))).status).toBe(
      'IN_MANUAL_REVIEW',
    );
    expect(
      (await outcome(crit('DOCUMENT_OWNER_SURNAME', 'EQUALS', 'YILMAZ', { rejectIfNotMet: false }))).status,
    ).toBe('IN_MANUAL_REVIEW');
  });

  it('a missing document field never meets a criterion', async () => {
    const r = await outcome(crit('DOCUMENT_PERSONAL_NUMBER', 'NOT_EQUALS', '1', { rejectIfNotMet: true }), {
      personalNumber: undefined,
      type: 'P',
    });
    expect(r.status).toBe('REJECTED');
  });
});

describe('approval criteria: matching the document fields (docs/architecture.md, decisions 6, 7)', () => {
  it('matches exactly by default and Turkish-aware with accentInsensitive', async () => {
    const exact = crit('DOCUMENT_OWNER_NAME', 'EQUALS', 'seyma', { rejectIfNotMet: true });
    expect((await outcome(exact)).status).toBe('REJECTED');
    const insensitive = crit('DOCUMENT_OWNER_NAME', 'EQUALS', '  seyma ', {
      rejectIfNotMet: true,
      accentInsensitive: true,
    });
    expect((await outcome(insensitive)).status).toBe('APPROVED');
    const surname = crit('DOCUMENT_OWNER_SURNAME', 'EQUALS', 'isik', {
      rejectIfNotMet: true,
      accentInsensitive: true,
    });
    expect((await outcome(surname)).status).toBe('APPROVED');
    expect(
      (await outcome(crit('DOCUMENT_OWNER_SURNAME', 'EQUALS', 'IŞIK', { rejectIfNotMet: true }))).status,
    ).toBe('APPROVED');
  });

  it('maps every supported type to its document field', async () => {
    const met: [string, string, string][] = [
      ['DOCUMENT_NUMBER', 'STARTS_WITH', 'A12'],
      ['DOCUMENT_PERSONAL_NUMBER', 'ENDS_WITH', '146'],
      ['DOCUMENT_OWNER_NAME', 'CONTAINS', 'EYM'],
      ['DOCUMENT_OWNER_SURNAME', 'NOT_CONTAINS', 'YIL'],
      ['DOCUMENT_TYPE', 'EQUALS', 'I'],
      ['DOCUMENT_COUNTRY', 'NOT_EQUALS', 'DEU'],
    ];
    const approvalCriteria = met.map(([type, condition, value]) => ({
      type,
      condition,
      value,
      rejectIfNotMet: true,
    }));
    expect((await outcome({ approvalCriteria })).status).toBe('APPROVED');
    const unmet: [string, string, string][] = [
      ['DOCUMENT_NUMBER', 'STARTS_WITH', 'B12'],
      ['DOCUMENT_PERSONAL_NUMBER', 'ENDS_WITH', '147'],
      ['DOCUMENT_OWNER_NAME', 'CONTAINS', 'AYŞE'],
      ['DOCUMENT_OWNER_SURNAME', 'NOT_CONTAINS', 'IŞ'],
      ['DOCUMENT_TYPE', 'EQUALS', 'P'],
      ['DOCUMENT_COUNTRY', 'NOT_EQUALS', 'TUR'],
    ];
    for (const [type, condition, value] of unmet) {
      const r = await outcome({ approvalCriteria: [{ type, condition, value, rejectIfNotMet: true }] });
      expect(r.status, `${type} ${condition} ${value}`).toBe('REJECTED');
    }
  });
});

describe('manual decisions', () => {
  it.each(['APPROVED', 'REJECTED', 'RESUBMISSION_REQUIRED'])(
    'IN_MANUAL_REVIEW -> %s by a reviewer',
    async (status) => {
      const { s } = await outcome({}, { scenario: 'manual_review' });
      const res = await decide(s.identificationId, { status });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ id: s.identificationId, status });
      expect((await h.read(s.identificationId)).body.status).toBe(status);
    },
  );

  it('needs the key (401)', async () => {
    const { s } = await outcome({}, { scenario: 'manual_review' });
    const res = await decide(s.identificationId, { status: 'APPROVED' }, null);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
  });

  it('answers 409 DECISION_NOT_ALLOWED outside IN_MANUAL_REVIEW, 400 for another status, 404 unknown', async () => {
    const fresh = await h.createSession();
    expect((await decide(fresh.identificationId, { status: 'APPROVED' })).body.error.code).toBe(
      'DECISION_NOT_ALLOWED',
    );
    const { s } = await outcome({});
    const res = await decide(s.identificationId, { status: 'REJECTED' });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('DECISION_NOT_ALLOWED');
    const manual = await outcome({}, { scenario: 'manual_review' });
    for (const body of [
      { status: 'IN_AUTOMATIC_REVIEW' },
      { status: 'approved' },
      {},
      { status: 'APPROVED', x: 1 },
    ]) {
      const bad = await decide(manual.s.identificationId, body);
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe('INVALID_REQUEST');
    }
    expect((await decide('c3b0c2f4-1111-4222-8333-444455556666', { status: 'APPROVED' })).status).toBe(404);
  });
});

describe('submissions', () => {
  it('RESUBMISSION_REQUIRED lets the person submit again; the new document is reviewed', async () => {
    const { s, status } = await outcome({}, { scenario: 'resubmit' });
    expect(status).toBe('RESUBMISSION_REQUIRED');
    const view = await h.request('GET', `/sandbox/sessions/${s.id}`, { key: null });
    expect(view.body.canSubmit).toBe(true);
    expect((await h.submit(s.id, { type: 'P', number: 'U23456789' })).status).toBe(202);
    expect(await h.reviewed(s.id, s.identificationId)).toBe('APPROVED');
    const verify = await h.request('POST', `/api/v1/identifications/${s.identificationId}/verify`, {
      json: { type: 'DOCUMENT_TYPE', value: 'P' },
    });
    expect(verify.body).toEqual({ verified: true });
  });

  it('a reviewer asking for resubmission reopens submissions too', async () => {
    const { s } = await outcome({}, { scenario: 'manual_review' });
    await decide(s.identificationId, { status: 'RESUBMISSION_REQUIRED' });
    expect((await h.submit(s.id)).status).toBe(202);
    expect(await h.reviewed(s.id, s.identificationId)).toBe('APPROVED');
  });

  it.each([
    ['APPROVED', 'approve'],
    ['REJECTED', 'reject'],
    ['IN_MANUAL_REVIEW', 'manual_review'],
  ])('is refused with 409 SUBMISSION_NOT_ALLOWED once %s', async (_status, scenario) => {
    const { s } = await outcome({}, { scenario });
    const res = await h.submit(s.id);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('SUBMISSION_NOT_ALLOWED');
  });

  it('is refused with 409 OTP_REQUIRED before the OTP is confirmed', async () => {
    const s = await h.createSession({ sendOTP: true, email: 'seyma@example.com' });
    const res = await h.submit(s.id);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('OTP_REQUIRED');
    await h.confirmOtp(s.id);
    expect((await h.submit(s.id)).status).toBe(202);
  });

  it('validates the document: 400 INVALID_REQUEST with details', async () => {
    const s = await h.createSession();
    const cases: Record<string, unknown>[] = [
      { type: 'X' },
      { number: '' },
      { givenName: '   ' },
      { surname: 42 },
      { country: 'TR' },
      { scenario: 'approve_later' },
      { colour: 'blue' },
    ];
    for (const doc of cases) {
      const res = await h.submit(s.id, doc);
      expect(res.status, JSON.stringify(doc)).toBe(400);
      expect(res.body.error.code).toBe('INVALID_REQUEST');
      expect(res.body.error.details.length).toBeGreaterThan(0);
    }
    const noBody = await h.request('POST', `/sandbox/sessions/${s.id}/documents`, { key: null });
    expect(noBody.status).toBe(400);
    expect((await h.submit('nope')).status).toBe(404);
  });
});
