// The kit against an upstream whose deep links come in either order (the spec's, or the vendor
// SDK's): a whole verification through each, over real HTTP against the real sandbox.
import { type Sandbox, startSandbox } from '@verify-kit/sandbox';
import { expectKeyNeverLeaked } from '@verify-kit/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import type { SessionResponseBody } from '../src/index.js';
import { startApp, type TestApp } from './support/app.js';
import { submitDocument, waitForStatus } from './support/sandbox.js';

const API_KEY = 'sk_test_link_styles_40f2';
afterAll(() => expectKeyNeverLeaked(API_KEY));

describe.each(['spec', 'sdk'] as const)('deep links in the %s order', (deepLinkStyle) => {
  let sandbox: Sandbox;
  let app: TestApp;
  afterAll(async () => {
    await app?.close();
    await sandbox?.close();
  });

  it('creates the session, passes the link through unchanged, renders its QR and gates on approval', async () => {
    sandbox = await startSandbox({
      apiKey: API_KEY,
      reviewDelayMs: 0,
      appScheme: 'trustchex',
      deepLinkStyle,
    });
    app = await startApp({ baseUrl: sandbox.url, apiKey: API_KEY });
    const person = app.browser();
    const created = await person.post<SessionResponseBody>('/identity/session');
    expect(created.status).toBe(201);
    const { deepLink } = created.json;
    expect(deepLink.startsWith('trustchex://')).toBe(true);
    expect(deepLink.indexOf('verification-session/') < deepLink.indexOf('app-url/')).toBe(
      deepLinkStyle === 'sdk',
    );
    const qr = await person.get('/identity/qr.svg');
    expect([qr.status, qr.headers['content-type']]).toEqual([200, 'image/svg+xml; charset=utf-8']);

    const { identificationId } = await submitDocument(sandbox, created.json.sessionCode, 'approve');
    await waitForStatus(sandbox, identificationId, 'APPROVED');
    expect((await person.get('/api/data')).status).toBe(200);
  });
});
