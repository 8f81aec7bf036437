import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.sandbox.close());

async function fetchPng(url: string) {
  const res = await fetch(url);
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

// jsqr is CommonJS with a default export that TypeScript sees as a namespace under NodeNext.
const jsQR = jsQRModule as unknown as typeof jsQRModule.default;

function decode(bytes: Buffer) {
  const png = PNG.sync.read(bytes);
  const code = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  return { width: png.width, height: png.height, text: code?.data };
}

describe('GET /api/v1/verification-sessions/:id/qr-code', () => {
  it('is a 250x250 PNG encoding the deep link exactly, without a key', async () => {
    const s = await h.createSession();
    const { res, bytes } = await fetchPng(s.qrCodeLink);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(decode(bytes)).toEqual({ width: 250, height: 250, text: s.deepLink });
  });

  it('stays 250x250 and decodable for long deep links (long base address, custom scheme)', async () => {
    const long = await harness({
      baseUrl: `https://verification.example.test/${'tenant/'.repeat(12)}idv`,
      appScheme: 'com.example.identity-app',
    });
    try {
      const s = await long.createSession();
      const local = s.qrCodeLink.replace(long.sandbox.baseUrl, long.url);
      const { res, bytes } = await fetchPng(local);
      expect(res.status).toBe(200);
      expect(decode(bytes)).toEqual({ width: 250, height: 250, text: s.deepLink });
    } finally {
      await long.sandbox.close();
    }
  });

  it('answers 400 SESSION_ID_MISSING when the id is missing', async () => {
    for (const path of [
      '/api/v1/verification-sessions//qr-code',
      '/api/v1/verification-sessions/%20/qr-code',
    ]) {
      const res = await h.request('GET', path, { key: null });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('SESSION_ID_MISSING');
    }
  });

  it('answers 404 for an unknown id and 410 once the session expired', async () => {
    const unknown = await h.request(
      'GET',
      '/api/v1/verification-sessions/0d6f1c1e-0000-4000-8000-000000000000/qr-code',
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
    const s = await h.createSession({ duration: 1 });
    h.sandbox.advanceClock(60_000);
    const gone = await h.request('GET', `/api/v1/verification-sessions/${s.id}/qr-code`);
    expect(gone.status).toBe(410);
    expect(gone.body.error.code).toBe('SESSION_EXPIRED');
  });
});

describe('GET /public/verification-sessions/:id', () => {
  it('shows the QR image, the deep link and the code in English for an en session', async () => {
    const s = await h.createSession({ locale: 'en' });
    const res = await h.request('GET', `/public/verification-sessions/${s.id}`, { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.text).toContain('<html lang="en">');
    expect(res.text).toContain('Verify your identity');
    expect(res.text).toContain(`src="/api/v1/verification-sessions/${s.id}/qr-code"`);
    expect(res.text).toContain(`href="${s.deepLink}"`);
    expect(res.text).toContain(`data-code="${s.sessionCode}"`);
  });

  it('is in Turkish for a tr session', async () => {
    const s = await h.createSession({ locale: 'tr' });
    const res = await h.request('GET', `/public/verification-sessions/${s.id}`, { key: null });
    expect(res.text).toContain('<html lang="tr">');
    expect(res.text).toContain('Kimliğinizi doğrulayın');
    expect(res.text).toContain('Uygulamada aç');
  });

  it('answers 404 for an unknown id and 410 for an expired session (HTML for browsers, JSON otherwise)', async () => {
    const html = await h.request('GET', '/public/verification-sessions/nope', {
      key: null,
      headers: { accept: 'text/html' },
    });
    expect(html.status).toBe(404);
    expect(html.headers.get('content-type')).toMatch(/^text\/html/);
    const json = await h.request('GET', '/public/verification-sessions/nope', { key: null });
    expect(json.status).toBe(404);
    expect(json.body.error.code).toBe('NOT_FOUND');
    const s = await h.createSession({ duration: 1 });
    h.sandbox.advanceClock(60_000);
    const gone = await h.request('GET', `/public/verification-sessions/${s.id}`, { key: null });
    expect(gone.status).toBe(410);
    expect(gone.body.error.code).toBe('SESSION_EXPIRED');
  });

  it('sends a strict CSP that still allows framing, and nosniff', async () => {
    const s = await h.createSession();
    const res = await h.request('GET', `/public/verification-sessions/${s.id}`, { key: null });
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('frame-ancestors');
    expect(res.headers.get('x-frame-options')).toBeNull();
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('the index page and the simulator pages', () => {
  it('GET / answers 200 with a link to the simulator', async () => {
    const res = await h.request('GET', '/', { key: null });
    expect(res.status).toBe(200);
    expect(res.text).toContain('href="/app/"');
  });

  it('GET /app/ serves the code step; ?lang=tr and Accept-Language: tr switch to Turkish', async () => {
    const en = await h.request('GET', '/app/', { key: null });
    expect(en.status).toBe(200);
    expect(en.text).toContain('id="code-input"');
    expect(en.text).toContain('<label for="code-input">Session code or deep link</label>');
    expect(en.text).toContain('src="/app/assets/simulator.js"');
    expect(en.text).not.toMatch(/\son[a-z]+=/i);
    const tr = await h.request('GET', '/app/?lang=tr', { key: null });
    expect(tr.text).toContain('<html lang="tr">');
    const trHeader = await h.request('GET', '/app/', {
      key: null,
      headers: { 'accept-language': 'tr-TR,tr;q=0.9' },
    });
    expect(trHeader.text).toContain('Oturum kodu veya derin bağlantı');
  });

  it('GET /app/verification-session/:id opens the session in its locale; 404 unknown, 410 expired', async () => {
    const s = await h.createSession({ locale: 'tr' });
    const res = await h.request('GET', `/app/verification-session/${s.id}`, { key: null });
    expect(res.status).toBe(200);
    expect(res.text).toContain(`data-session-id="${s.id}"`);
    expect(res.text).toContain('<html lang="tr">');
    expect((await h.request('GET', '/app/verification-session/nope', { key: null })).status).toBe(404);
    const short = await h.createSession({ duration: 1 });
    h.sandbox.advanceClock(60_000);
    expect((await h.request('GET', `/app/verification-session/${short.id}`, { key: null })).status).toBe(410);
  });

  it('serves the script and the stylesheet as files', async () => {
    const js = await h.request('GET', '/app/assets/simulator.js', { key: null });
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(js.text).toContain('/sandbox/sessions/');
    const css = await h.request('GET', '/app/assets/sandbox.css', { key: null });
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    expect((await h.request('GET', '/app/assets/other.js', { key: null })).status).toBe(404);
  });

  it('answers an unknown route with 404 JSON', async () => {
    const res = await h.request('GET', '/nowhere/at/all', { key: null });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });
});
