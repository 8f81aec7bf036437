import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.sandbox.close());

const outbox = async (verificationSessionId: string) =>
  (await h.request('GET', `/sandbox/outbox?verificationSessionId=${verificationSessionId}`)).body.messages;
const otpOf = async (sessionId: string) =>
  (await outbox(sessionId)).filter((m: { kind: string }) => m.kind === 'otp').at(-1).otp as string;
const sendOtp = (sessionId: string, code: unknown) =>
  h.request('POST', `/sandbox/sessions/${sessionId}/otp`, { json: { code }, key: null });
const wrong = (otp: string) => String((Number(otp) + 1) % 1_000_000).padStart(6, '0');

describe('the outbox (docs/architecture.md, decision 12)', () => {
  it('sends a link and a 6-digit OTP by e-mail when sendOTP is true with an e-mail', async () => {
    const s = await h.createSession({ sendOTP: true, email: 'seyma@example.com' });
    const messages = await outbox(s.id);
    expect(messages.map((m: { kind: string }) => m.kind)).toEqual(['link', 'otp']);
    for (const m of messages) {
      expect(m).toMatchObject({
        channel: 'email',
        recipient: 'seyma@example.com',
        verificationSessionId: s.id,
        identificationId: s.identificationId,
      });
    }
    expect(messages[0].link).toBe(s.deepLink);
    expect(messages[0].text).toContain(s.sessionCode);
    expect(messages[1].otp).toMatch(/^\d{6}$/);
    expect(messages[1].text).toContain(messages[1].otp);
  });

  it('sends by sms to a phone number, in the session locale', async () => {
    const s = await h.createSession({ sendOTP: true, phoneNumber: '+90 555 123 45 67', locale: 'tr' });
    const messages = await outbox(s.id);
    expect(messages.every((m: { channel: string }) => m.channel === 'sms')).toBe(true);
    expect(messages[1].recipient).toBe('+90 555 123 45 67');
    expect(messages[1].text).toContain('Doğrulama kodunuz');
  });

  it('sendOTP false: no OTP and no OTP step; a given contact still gets the link', async () => {
    const s = await h.createSession({ sendOTP: false, email: 'seyma@example.com' });
    const messages = await outbox(s.id);
    expect(messages.map((m: { kind: string }) => m.kind)).toEqual(['link']);
    const view = await h.request('GET', `/sandbox/sessions/${s.id}`, { key: null });
    expect(view.body.needsOtp).toBe(false);
    expect((await h.submit(s.id)).status).toBe(202);
  });

  it('sendOTP false with no contact: nothing is sent at all', async () => {
    const s = await h.createSession({ sendOTP: false });
    expect(await outbox(s.id)).toEqual([]);
  });

  it('needs the key (401); filters by recipient', async () => {
    expect((await h.request('GET', '/sandbox/outbox', { key: null })).status).toBe(401);
    await h.createSession({ sendOTP: true, email: 'only-me@example.com' });
    const res = await h.request('GET', '/sandbox/outbox?recipient=only-me@example.com');
    expect(res.body.messages.length).toBe(2);
  });

  it('GET /sandbox/sessions/:id/messages shows the person only their own messages, without a key', async () => {
    const s = await h.createSession({ sendOTP: true, email: 'mine@example.com' });
    await h.createSession({ sendOTP: true, email: 'theirs@example.com' });
    const res = await h.request('GET', `/sandbox/sessions/${s.id}/messages`, { key: null });
    expect(res.status).toBe(200);
    expect(res.body.messages.map((m: { recipient: string }) => m.recipient)).toEqual([
      'mine@example.com',
      'mine@example.com',
    ]);
  });
});

describe('POST /sandbox/sessions/:id/otp', () => {
  it('the right code answers 204 and opens the document step; confirming again is 204', async () => {
    const s = await h.createSession({ sendOTP: true, email: 'a@example.com' });
    const otp = await otpOf(s.id);
    expect((await sendOtp(s.id, otp)).status).toBe(204);
    const view = await h.request('GET', `/sandbox/sessions/${s.id}`, { key: null });
    expect(view.body).toMatchObject({ needsOtp: false, canSubmit: true, otp: { confirmed: true } });
    expect((await sendOtp(s.id, otp)).status).toBe(204);
  });

  it('5 tries: each wrong code is 400 OTP_INVALID, then 429 OTP_TOO_MANY_TRIES even for the right code', async () => {
    const s = await h.createSession({ sendOTP: true, email: 'a@example.com' });
    const otp = await otpOf(s.id);
    for (let i = 1; i <= 5; i++) {
      const res = await sendOtp(s.id, wrong(otp));
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('OTP_INVALID');
      expect(res.body.error.details[0].triesLeft).toBe(5 - i);
    }
    const locked = await sendOtp(s.id, otp);
    expect(locked.status).toBe(429);
    expect(locked.body.error.code).toBe('OTP_TOO_MANY_TRIES');
    expect((await h.submit(s.id)).body.error.code).toBe('OTP_REQUIRED');
  });

  it('the 5th try may still be the right one', async () => {
    const s = await h.createSession({ sendOTP: true, email: 'a@example.com' });
    const otp = await otpOf(s.id);
    for (let i = 0; i < 4; i++) await sendOtp(s.id, wrong(otp));
    expect((await sendOtp(s.id, otp)).status).toBe(204);
  });

  it('a code of the wrong shape is 400 INVALID_REQUEST and uses no try', async () => {
    const s = await h.createSession({ sendOTP: true, email: 'a@example.com' });
    for (const code of ['12345', '1234567', 'abcdef', 123456, null]) {
      const res = await sendOtp(s.id, code);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('INVALID_REQUEST');
    }
    const view = await h.request('GET', `/sandbox/sessions/${s.id}`, { key: null });
    expect(view.body.otp.triesLeft).toBe(5);
  });

  it('the code expires after 5 minutes (400 OTP_EXPIRED); a new code works', async () => {
    const s = await h.createSession({ sendOTP: true, email: 'a@example.com' });
    const otp = await otpOf(s.id);
    h.sandbox.advanceClock(5 * 60_000);
    const res = await sendOtp(s.id, otp);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('OTP_EXPIRED');
    expect((await h.request('POST', `/sandbox/sessions/${s.id}/otp/resend`, { key: null })).status).toBe(204);
    const fresh = await otpOf(s.id);
    expect((await outbox(s.id)).filter((m: { kind: string }) => m.kind === 'otp').length).toBe(2);
    expect((await sendOtp(s.id, fresh)).status).toBe(204);
  });

  it('a session without OTP step answers 409 OTP_NOT_REQUIRED; unknown 404; expired 410', async () => {
    const s = await h.createSession({ sendOTP: false });
    const res = await sendOtp(s.id, '123456');
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('OTP_NOT_REQUIRED');
    expect((await sendOtp('nope', '123456')).status).toBe(404);
    const short = await h.createSession({ sendOTP: true, email: 'a@example.com', duration: 1 });
    h.sandbox.advanceClock(60_000);
    expect((await sendOtp(short.id, await otpOf(short.id))).status).toBe(410);
  });
});
