import { randomBytes } from 'node:crypto';
import express, { type Express } from 'express';

const page = (script: string, body: string) => `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>verify-kit bench</title>
<script type="module" src="${script}"></script></head>
<body>${body}</body>
</html>`;

/** The integrator's page with the standalone widget; `autoStart`: what a person sees when the page verifies at once. */
export const widgetPage = (autoStart: boolean) =>
  page(
    '/assets/verify-identity.standalone.js',
    `<verify-identity endpoint="/identity"${autoStart ? ' auto-start' : ''}></verify-identity>`,
  );

/** The same page with the widget replaced by the least a page must do to show the QR. */
const LIMIT_PAGE = page('/bench/qr-limit.js', '<main></main>');

/** One POST to `url` for the answer, one <img> from its data: URL. */
const paintFrom = (url: string) =>
  `const r=await fetch('${url}',{method:'POST',headers:{'content-type':'application/json'},body:'{"locale":"en"}'});` +
  "const i=document.createElement('img');i.src=(await r.json()).qrImage;i.width=192;i.height=192;document.querySelector('main').append(i);";
const LIMIT_CODE = paintFrom('/bench/qr-limit/session');

/**
 * The click's limit (`ui.clickToQr`): a Start button whose click asks the kit itself for a session
 * (the same server work and the same bytes as the widget's click) and paints its QR: the ratio is the
 * widget's own cost in the browser.
 */
const CLICK_LIMIT_PAGE = page('/bench/click-limit.js', '<main><button type="button">Start</button></main>');
const CLICK_LIMIT_CODE = `document.querySelector('button').addEventListener('click',async()=>{${paintFrom('/identity/session')}});`;

/**
 * The physical limit of the widget's time to QR (`ui.timeToQr.slow3g`), on the integrator's app:
 * `/bench/qr-limit` is the auto-start page with a plain script in place of the widget, exactly as
 * many bytes on the wire as the widget's gzip (code, then random text that does not compress, sent
 * as is), which POSTs for one JSON exactly as long as the kit's session answer (the bench sets it:
 * `POST /bench/qr-limit/answer`, a real answer of the kit) and paints its QR. No kit, no upstream.
 * `/bench/click-limit`: the same answer fetched and painted when its Start button is clicked.
 */
export function mountQrLimit(app: Express, widgetGzipBytes: number): void {
  // Never negative: run from sources (tests), the widget is its small TypeScript entry, not its build.
  const padding = Math.max(0, widgetGzipBytes - LIMIT_CODE.length - '/**/'.length);
  const script = `${LIMIT_CODE}/*${randomBytes(padding).toString('base64').slice(0, padding)}*/`;
  let answer = '{}';
  app.get('/auto', (_req, res) => {
    res.type('html').set('Cache-Control', 'no-store').send(widgetPage(true));
  });
  app.get('/bench/qr-limit', (_req, res) => {
    res.type('html').set('Cache-Control', 'no-store').send(LIMIT_PAGE);
  });
  app.get('/bench/qr-limit.js', (_req, res) => {
    res.type('text/javascript').send(script);
  });
  // The same answer after a click: the page that clicks Start has its script already (ui.clickToQr).
  app.get('/bench/click-limit', (_req, res) => {
    res.type('html').set('Cache-Control', 'no-store').send(CLICK_LIMIT_PAGE);
  });
  app.get('/bench/click-limit.js', (_req, res) => {
    res.type('text/javascript').send(CLICK_LIMIT_CODE);
  });
  app.post('/bench/qr-limit/answer', express.text({ type: '*/*', limit: '64kb' }), (req, res) => {
    answer = String(req.body);
    res.status(204).end();
  });
  app.post('/bench/qr-limit/session', (_req, res) => {
    res.status(201).type('json').set('Cache-Control', 'no-store').send(answer);
  });
}

/**
 * Gives the limit pages (`/bench/qr-limit`, `/bench/click-limit`) a real session answer of the kit
 * at `appUrl`, as many bytes (the QR's `data:` URL in it), and returns it.
 */
export async function setLimitAnswer(appUrl: string): Promise<string> {
  const created = await fetch(`${appUrl}/identity/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"locale":"en"}',
  });
  const answer = await created.text();
  if (created.status !== 201) throw new Error(`POST /identity/session answered ${created.status}`);
  await fetch(`${appUrl}/bench/qr-limit/answer`, { method: 'POST', body: answer });
  return answer;
}
