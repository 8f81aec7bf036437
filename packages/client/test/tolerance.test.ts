// The production client against an upstream that answers the way the vendor's own SDK documents
// it (issue: survive first contact with the real service), over real HTTP on 127.0.0.1.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { VerifyClient } from '../src/index.js';
import { CLIENTS } from './helpers/client-fixture.js';
import { type FakeUpstream, json, startFakeUpstream } from './helpers/fake-upstream.js';

const API_KEY = 'sk_test_tolerance_77aa';
const request = { workflowId: 'default', locale: 'en', sendOTP: false } as const;

/** A creation answer as the vendor's SDK material shows it: other id shapes, other link order, extras. */
function vendorAnswer(base: string) {
  return {
    id: 'vs_01JD8Q2M4K',
    identificationId: 'idn_7731',
    sessionCode: 'K7M2P9QX',
    deepLink: `trustchex://verification-session/vs_01JD8Q2M4K/app-url/${new URL(base).host}`,
    qrCodeLink: `${base}/qr/vs_01JD8Q2M4K.png`,
    sessionPageLink: `${base}/s/vs_01JD8Q2M4K`,
    createdAt: '2026-11-23T10:00:00Z',
    livenessRequired: true,
  };
}

describe.each(CLIENTS)('$name client', ({ create }) => {
  let upstream: FakeUpstream;
  const clients: VerifyClient[] = [];
  const warnings: { message: string; meta?: Record<string, unknown> }[] = [];
  const make = (extra = {}) => {
    const client = create({
      baseUrl: upstream.url,
      apiKey: API_KEY,
      retries: 0,
      logger: { warn: (message, meta) => warnings.push({ message, ...(meta ? { meta } : {}) }) },
      ...extra,
    });
    clients.push(client);
    return client;
  };

  beforeEach(async () => {
    upstream = await startFakeUpstream();
    warnings.length = 0;
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close();
    await upstream.close();
  });

  describe('the tolerant client (default)', () => {
    it('accepts the SDK’s deep-link order, non-UUID ids and extra fields; passes the link through unchanged', async () => {
      const answer = vendorAnswer(upstream.url);
      upstream.answer(json(201, answer));
      const created = await make().createSession(request);
      expect(created).toEqual({
        id: answer.id,
        identificationId: answer.identificationId,
        sessionCode: answer.sessionCode,
        deepLink: answer.deepLink,
        qrCodeLink: answer.qrCodeLink,
        sessionPageLink: answer.sessionPageLink,
      });
    });

    it('says once, as a warning, that the shape is not the spec’s, naming the fields (never the values)', async () => {
      const client = make();
      for (let i = 0; i < 3; i++) {
        upstream.answer(json(201, vendorAnswer(upstream.url)));
        await client.createSession(request);
      }
      expect(warnings).toHaveLength(1);
      expect(warnings[0]!.message).toMatch(/shape the spec does not describe/);
      expect(warnings[0]!.meta?.fields).toEqual(expect.arrayContaining(['id', 'deepLink']));
      expect(JSON.stringify(warnings)).not.toContain('vs_01JD8Q2M4K');
    });

    it.each([
      'javascript://verification-session/x/app-url/%0Aalert(document.cookie)//',
      'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
      'vbscript:msgbox(1)',
      'file:///etc/passwd',
    ])('refuses the deep link %s: UPSTREAM_BAD_RESPONSE, it never reaches a browser', async (deepLink) => {
      upstream.answer(json(201, { ...vendorAnswer(upstream.url), deepLink }));
      await expect(make().createSession(request)).rejects.toMatchObject({ code: 'UPSTREAM_BAD_RESPONSE' });
    });
  });

  describe('strict: true', () => {
    it('refuses the same vendor-shaped answer: an alarm for people who want one', async () => {
      upstream.answer(json(201, vendorAnswer(upstream.url)));
      await expect(make({ strict: true }).createSession(request)).rejects.toMatchObject({
        code: 'UPSTREAM_BAD_RESPONSE',
      });
    });
  });

  describe('allowInsecureHttp', () => {
    it('refuses http:// to another machine unless allowed; this machine is fine', () => {
      expect(() => create({ baseUrl: 'http://idv.example.com', apiKey: API_KEY })).toThrow(
        /baseUrl uses http:\/\/ to another machine/,
      );
      const allowed = create({
        baseUrl: 'http://idv.example.com',
        apiKey: API_KEY,
        allowInsecureHttp: true,
      });
      clients.push(allowed);
      expect(allowed.baseUrl).toBe('http://idv.example.com');
    });
  });
});
