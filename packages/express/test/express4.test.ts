import { expectKeyNeverLeaked } from '@verify-kit/testkit';
import express4 from 'express4';
import { describe, expect, it } from 'vitest';
import type { SessionResponseBody, StatusResponseBody } from '../src/index.js';
import { startWebhookedApp } from './support/fixtures.js';
import { submitDocument } from './support/sandbox.js';

const API_KEY = 'sk_test_express4_77e0c2b9f1';

describe('on an Express 4 app (the oldest peer)', () => {
  it('runs the protocol, the webhook and the gate', async () => {
    const { sandbox, app, close } = await startWebhookedApp(API_KEY, { express: express4 });
    try {
      const browser = app.browser();
      const session = await browser.post<SessionResponseBody>('/identity/session');
      expect(session.status).toBe(201);
      expect(session.json.phase).toBe('awaiting_user');
      expect((await browser.get(session.json.qrCodeUrl)).headers['content-type']).toBe(
        'image/svg+xml; charset=utf-8',
      );
      expect((await browser.get('/account', { accept: 'text/html' })).headers.location).toBe(
        '/verify?returnTo=%2Faccount',
      );
      const malformed = await browser.fetch('POST', '/identity/session', {
        body: '{',
        headers: { 'content-type': 'application/json' },
      });
      expect(malformed.json).toMatchObject({ error: { code: 'INVALID_JSON' } });

      const poll = browser.get<StatusResponseBody>('/identity/status?wait=20&since=awaiting_user');
      await new Promise((resolve) => setTimeout(resolve, 50));
      await submitDocument(sandbox, session.json.sessionCode, 'approve');
      // Only the webhook can wake it (the poll interval is a minute).
      expect((await poll).json.phase).not.toBe('awaiting_user');
      let phase = '';
      for (let i = 0; i < 200 && phase !== 'approved'; i++) {
        phase = (await browser.get<StatusResponseBody>('/identity/status')).json.phase;
      }
      expect(phase).toBe('approved');
      expect((await browser.get('/account')).json).toEqual({ account: 'welcome' });
    } finally {
      await close();
    }
    expectKeyNeverLeaked(API_KEY);
  });
});
