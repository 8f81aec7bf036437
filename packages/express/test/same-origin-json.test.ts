import { Browser, type Listening, listen } from '@verify-kit/testkit';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sameOriginJson } from '../src/index.js';

type ErrorJson = { error: { code: string } };

// An app's own JSON API behind the kit's CSRF rule: what reaches the handler, what is refused.
describe('sameOriginJson(): the kit’s CSRF rule for an app’s own API', () => {
  let server: Listening;
  let handled = 0;
  beforeAll(async () => {
    const app = express();
    app.use('/api', sameOriginJson(), express.json(), (req, res) => {
      handled++;
      res.json({ method: req.method, body: req.body ?? null });
    });
    server = await listen(app);
  });
  afterAll(() => server.close());

  it('lets a same-origin JSON post through, and any GET', async () => {
    const browser = new Browser(server.url);
    expect((await browser.post('/api/things', { name: 'a' })).json).toEqual({
      method: 'POST',
      body: { name: 'a' },
    });
    const crossSiteGet = await browser.get('/api/things', { 'sec-fetch-site': 'cross-site' });
    expect(crossSiteGet.status).toBe(200);
  });

  it('refuses a post from another site (Fetch Metadata, or Origin without it) with 403 CROSS_SITE_REQUEST', async () => {
    const browser = new Browser(server.url);
    const before = handled;
    const refusals: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { 'sec-fetch-site': '', origin: 'https://evil.example' },
    ];
    for (const headers of refusals) {
      const res = await browser.fetch<ErrorJson>('POST', '/api/things', { headers, json: {} });
      expect([res.status, res.json.error.code]).toEqual([403, 'CROSS_SITE_REQUEST']);
    }
    expect(handled).toBe(before);
  });

  it('refuses a body that is not JSON (a form) with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const before = handled;
    const res = await new Browser(server.url).fetch<ErrorJson>('POST', '/api/things', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=a',
    });
    expect([res.status, res.json.error.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    expect(handled).toBe(before);
  });
});
