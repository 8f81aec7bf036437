import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY, type Harness, harness, SEYMA } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.sandbox.close());

describe('the code lookup', () => {
  it('GET /sandbox/sessions/by-code/:code finds the live session case-insensitively', async () => {
    const s = await h.createSession();
    for (const code of [
      s.sessionCode,
      s.sessionCode.toLowerCase(),
      `${s.sessionCode.slice(0, 4)}-${s.sessionCode.slice(4)}`,
    ]) {
      const res = await h.request('GET', `/sandbox/sessions/by-code/${encodeURIComponent(code)}`, {
        key: null,
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ id: s.id, identificationId: s.identificationId });
    }
    const unknown = await h.request('GET', '/sandbox/sessions/by-code/ZZZZ2222', { key: null });
    expect(unknown.status).toBe(404);
  });

  it('guessing codes is throttled: after 10 misses a second, 429 with Retry-After; right codes never count', async () => {
    const s = await h.createSession();
    h.sandbox.advanceClock(1000); // a window of its own, whatever the tests before missed
    for (let i = 0; i < 30; i++) {
      expect(
        (await h.request('GET', `/sandbox/sessions/by-code/${s.sessionCode}`, { key: null })).status,
      ).toBe(200);
    }
    const guesses = [];
    for (let i = 0; i < 12; i++) {
      guesses.push(await h.request('GET', `/sandbox/sessions/by-code/ZZZZ${2222 + i}`, { key: null }));
    }
    expect(guesses.slice(0, 10).map((res) => res.status)).toEqual(Array(10).fill(404));
    expect(guesses[10]!.status).toBe(429);
    expect(Number(guesses[10]!.headers.get('retry-after'))).toBeGreaterThan(0);
    // The address is blocked for the rest of the window, even for a right code.
    expect((await h.request('GET', `/sandbox/sessions/by-code/${s.sessionCode}`, { key: null })).status).toBe(
      429,
    );
    h.sandbox.advanceClock(1000);
    expect((await h.request('GET', `/sandbox/sessions/by-code/${s.sessionCode}`, { key: null })).status).toBe(
      200,
    );
  });
});

describe('the app view', () => {
  it('GET /sandbox/sessions/:id shows what the app shows, with the contact masked', async () => {
    const s = await h.createSession({ sendOTP: true, email: 'seyma.isik@example.com', locale: 'tr' });
    const res = await h.request('GET', `/sandbox/sessions/${s.id}`, { key: null });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: s.id,
      identificationId: s.identificationId,
      sessionCode: s.sessionCode,
      locale: 'tr',
      needsOtp: true,
      contact: { channel: 'email', masked: 's***@example.com' },
      status: 'IN_AUTOMATIC_REVIEW',
      documentSubmitted: false,
      canSubmit: false,
      expiresAt: s.expiresAt,
    });
    expect(res.text).not.toContain('seyma.isik');
    const phone = await h.createSession({ sendOTP: true, phoneNumber: '+90 555 123 45 67' });
    const phoneView = await h.request('GET', `/sandbox/sessions/${phone.id}`, { key: null });
    expect(phoneView.body.contact).toEqual({ channel: 'sms', masked: '+** *** *** ** 67' });
    const none = await h.createSession({ sendOTP: false });
    const noneView = await h.request('GET', `/sandbox/sessions/${none.id}`, { key: null });
    expect(noneView.body).toMatchObject({ needsOtp: false, otp: null, contact: null, canSubmit: true });
  });

  it('lists the test documents, including the Turkish ID card of ŞEYMA IŞIK', async () => {
    const res = await h.request('GET', '/sandbox/test-documents', { key: null });
    expect(res.status).toBe(200);
    const ids = res.body.documents.map((d: { id: string }) => d.id);
    expect(ids).toEqual(['tr-id-card', 'tr-passport', 'de-passport', 'tr-id-card-other-surname']);
    const [idCard] = res.body.documents;
    expect(idCard.document).toEqual(SEYMA);
    expect(idCard.document).toMatchObject({ givenName: 'ŞEYMA', surname: 'IŞIK', type: 'I', country: 'TUR' });
  });

  it('never shows the API key in any control answer', async () => {
    const s = await h.createSession({ sendOTP: true, email: 'a@example.com' });
    for (const path of [
      `/sandbox/sessions/${s.id}`,
      `/sandbox/sessions/${s.id}/messages`,
      '/sandbox/outbox',
    ]) {
      expect((await h.request('GET', path)).text).not.toContain(API_KEY);
    }
  });
});
