import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY, type Harness, harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.sandbox.close());

const verify = (identificationId: string, json: unknown, key?: string | null) =>
  h.request('POST', `/api/v1/identifications/${identificationId}/verify`, {
    json,
    ...(key === undefined ? {} : { key }),
  });

describe('GET /api/v1/identifications/:id', () => {
  it('answers 401 UNAUTHORIZED without or with a wrong key', async () => {
    const s = await h.createSession();
    for (const key of [null, 'wrong']) {
      const res = await h.request('GET', `/api/v1/identifications/${s.identificationId}`, { key });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('UNAUTHORIZED');
      expect(res.text).not.toContain(API_KEY);
    }
  });

  it('answers 404 NOT_FOUND for an unknown id, and 400 when the id is missing', async () => {
    const res = await h.read('3b0c2f4e-1111-4222-8333-444455556666');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    const missing = await h.request('GET', '/api/v1/identifications/');
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('IDENTIFICATION_ID_MISSING');
  });

  it('tells "waiting for the person" from "in review" by documentSubmitted', async () => {
    const slow = await harness({ reviewDelayMs: 60_000 });
    try {
      const s = await slow.createSession();
      expect((await slow.read(s.identificationId)).body).toMatchObject({
        status: 'IN_AUTOMATIC_REVIEW',
        documentSubmitted: false,
      });
      expect((await slow.submit(s.id)).status).toBe(202);
      expect((await slow.read(s.identificationId)).body).toMatchObject({
        status: 'IN_AUTOMATIC_REVIEW',
        documentSubmitted: true,
      });
    } finally {
      await slow.sandbox.close();
    }
  });
});

describe('POST /api/v1/identifications/:id/verify: refusals', () => {
  it('answers 403 FORBIDDEN without or with a wrong key', async () => {
    const s = await h.createSession();
    for (const key of [null, 'wrong']) {
      const res = await verify(s.identificationId, { type: 'DOCUMENT_TYPE', value: 'I' }, key);
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
      expect(res.text).not.toContain(API_KEY);
    }
  });

  it('answers 404 NOT_FOUND for an unknown identification', async () => {
    const res = await verify('3b0c2f4e-1111-4222-8333-444455556666', { type: 'DOCUMENT_TYPE', value: 'I' });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });

  it.each([
    ['no body', undefined],
    ['type missing', { value: 'I' }],
    ['value missing', { type: 'DOCUMENT_TYPE' }],
    ['an unknown type', { type: 'DOCUMENT_OWNER_NAME', value: 'x' }],
    ['value not a string', { type: 'DOCUMENT_NUMBER', value: 5 }],
    ['value empty', { type: 'DOCUMENT_NUMBER', value: '' }],
    ['DOCUMENT_TYPE not I/P', { type: 'DOCUMENT_TYPE', value: 'X' }],
    ['DOCUMENT_COUNTRY not alpha-3', { type: 'DOCUMENT_COUNTRY', value: 'TR' }],
    ['CONTACT_EMAIL not an address', { type: 'CONTACT_EMAIL', value: 'nobody' }],
    ['CONTACT_PHONE not a number', { type: 'CONTACT_PHONE', value: 'call me' }],
    ['an extra field', { type: 'DOCUMENT_TYPE', value: 'I', extra: true }],
    ['an array', [{ type: 'DOCUMENT_TYPE', value: 'I' }]],
    ['null', null],
  ])('answers 400 INVALID_REQUEST for %s', async (_name, body) => {
    const s = await h.createSession();
    const res =
      body === undefined
        ? await h.request('POST', `/api/v1/identifications/${s.identificationId}/verify`)
        : await verify(s.identificationId, body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_REQUEST');
  });

  it('405 for another method', async () => {
    const s = await h.createSession();
    const res = await h.request('GET', `/api/v1/identifications/${s.identificationId}/verify`);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  it('answers 400 IDENTIFICATION_ID_MISSING for /identifications//verify (after the key check)', async () => {
    const res = await verify('', { type: 'DOCUMENT_TYPE', value: 'I' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('IDENTIFICATION_ID_MISSING');
    expect((await verify('', { type: 'DOCUMENT_TYPE', value: 'I' }, null)).status).toBe(403);
  });
});

describe('POST /api/v1/identifications/:id/verify: the answer', () => {
  it('answers { verified: false } for every type before a document was submitted', async () => {
    const s = await h.createSession({ sendOTP: false, email: 'seyma@example.com' });
    for (const [type, value] of [
      ['CONTACT_EMAIL', 'seyma@example.com'],
      ['DOCUMENT_NUMBER', 'A12F34567'],
      ['DOCUMENT_TYPE', 'I'],
      ['DOCUMENT_COUNTRY', 'TUR'],
    ]) {
      const res = await verify(s.identificationId, { type, value });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ verified: false });
    }
  });

  describe('after a document was submitted (docs/architecture.md, decision 9)', () => {
    const cases: [string, string, boolean][] = [
      ['CONTACT_EMAIL', 'seyma@example.com', true],
      ['CONTACT_EMAIL', 'SEYMA@Example.COM', true],
      ['CONTACT_EMAIL', 'other@example.com', false],
      ['DOCUMENT_NUMBER', 'A12F34567', true],
      ['DOCUMENT_NUMBER', 'a12f 345 67', true],
      ['DOCUMENT_NUMBER', 'A12F34568', false],
      ['DOCUMENT_TYPE', 'I', true],
      ['DOCUMENT_TYPE', 'P', false],
      ['DOCUMENT_COUNTRY', 'TUR', true],
      ['DOCUMENT_COUNTRY', 'tur', true],
      ['DOCUMENT_COUNTRY', 'DEU', false],
      ['CONTACT_PHONE', '+90 555 123 45 67', false],
    ];
    let identificationId = '';
    beforeAll(async () => {
      const s = await h.createSession({ sendOTP: false, email: 'seyma@example.com' });
      identificationId = s.identificationId;
      expect((await h.submit(s.id)).status).toBe(202);
    });
    it.each(cases)('%s %s -> verified %s', async (type, value, verified) => {
      const res = await verify(identificationId, { type, value });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ verified });
    });
  });

  it('compares CONTACT_PHONE by digits only', async () => {
    const s = await h.createSession({ sendOTP: true, phoneNumber: '+90 (555) 123-45-67' });
    await h.confirmOtp(s.id);
    await h.submit(s.id);
    expect(
      (await verify(s.identificationId, { type: 'CONTACT_PHONE', value: '+905551234567' })).body,
    ).toEqual({
      verified: true,
    });
    expect((await verify(s.identificationId, { type: 'CONTACT_PHONE', value: '05551234567' })).body).toEqual({
      verified: false,
    });
    expect(
      (await verify(s.identificationId, { type: 'CONTACT_EMAIL', value: 'a@example.com' })).body,
    ).toEqual({
      verified: false,
    });
  });
});
