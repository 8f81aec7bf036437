import { VerifyKitError } from '@verify-kit/client';
import { expectKeyNeverLeaked, type FakeUpstream, logLines, startFakeUpstream } from '@verify-kit/testkit';
import type { Request } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionOptions } from '../src/index.js';
import { startApp } from './support/app.js';

const API_KEY = 'sk_test_session_opts_4411aa';
let upstream: FakeUpstream;

beforeAll(async () => {
  upstream = await startFakeUpstream();
});

afterAll(async () => {
  await upstream.close();
  expectKeyNeverLeaked(API_KEY);
});

type ErrorJson = { error: { code: string; message: string } };

async function createWith(
  sessionOptions: ((req: Request) => SessionOptions | Promise<SessionOptions>) | undefined,
) {
  const app = await startApp({
    baseUrl: upstream.url,
    apiKey: API_KEY,
    ...(sessionOptions ? { sessionOptions } : {}),
  });
  try {
    const browser = app.browser();
    await browser.post('/login?user=ayse@example.com');
    return await browser.post<ErrorJson>('/identity/session');
  } finally {
    await app.close();
  }
}

describe('the creation body', () => {
  it('is contact-less English without sessionOptions', async () => {
    expect((await createWith(undefined)).status).toBe(201);
    expect(upstream.created.at(-1)).toEqual({ workflowId: 'default', locale: 'en', sendOTP: false });
  });

  it("asks the service for the widget's language when it speaks it, else for English (de, ar)", async () => {
    const app = await startApp({ baseUrl: upstream.url, apiKey: API_KEY });
    try {
      const asked: string[] = [];
      for (const locale of ['tr', 'de', 'ar', 'en']) {
        const res = await app.browser().post('/identity/session', { locale });
        expect(res.status).toBe(201);
        asked.push((upstream.created.at(-1) as { locale: string }).locale);
      }
      expect(asked).toEqual(['tr', 'en', 'en', 'en']);
    } finally {
      await app.close();
    }
  });

  it('takes the rest from sessionOptions(req), sync or async', async () => {
    const res = await createWith(async (req) => ({
      email: (req.session as unknown as { user: string }).user,
      locale: 'tr',
      duration: 10,
      approvalCriteria: [
        { type: 'DOCUMENT_COUNTRY', condition: 'EQUALS', value: 'TUR', rejectIfNotMet: true },
      ],
    }));
    expect(res.status).toBe(201);
    expect(upstream.created.at(-1)).toEqual({
      workflowId: 'default',
      email: 'ayse@example.com',
      locale: 'tr',
      duration: 10,
      approvalCriteria: [
        { type: 'DOCUMENT_COUNTRY', condition: 'EQUALS', value: 'TUR', rejectIfNotMet: true },
      ],
    });
    // Without an expiresAt from the service, the kit derives it from duration.
    const expiresIn = Date.parse((res.json as unknown as { expiresAt: string }).expiresAt) - Date.now();
    expect(expiresIn).toBeGreaterThan(9 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(10 * 60_000);
  });

  it('is refused before the service sees it when invalid: 500 SESSION_OPTIONS_INVALID, issues logged', async () => {
    const before = upstream.created.length;
    const res = await createWith(() => ({ locale: 'fr' as 'en' }));
    expect(res.status).toBe(500);
    expect(res.json.error.code).toBe('SESSION_OPTIONS_INVALID');
    expect(upstream.created.length).toBe(before);
    expect(
      logLines.some(
        (line) => line.includes('sessionOptions(req) returned a body') && line.includes('locale'),
      ),
    ).toBe(true);
  });

  it('maps a throwing sessionOptions to 500 SESSION_OPTIONS_FAILED, or to the 4xx the integrator chose', async () => {
    const failed = await createWith(() => {
      throw new TypeError('req.user is undefined');
    });
    expect([failed.status, failed.json.error.code]).toEqual([500, 'SESSION_OPTIONS_FAILED']);
    expect(failed.text).not.toContain('req.user');
    const refused = await createWith(() => {
      throw new VerifyKitError('SIGN_IN_REQUIRED', 'sign in first', { status: 401 });
    });
    expect([refused.status, refused.json.error.code, refused.json.error.message]).toEqual([
      401,
      'SIGN_IN_REQUIRED',
      'sign in first',
    ]);
  });
});
