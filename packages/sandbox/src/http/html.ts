import type { Locale } from '@verify-kit/client';
import type { Response } from 'express';
import { SCENARIOS } from '../documents.js';
import { publicPageTexts, simulatorPageTexts, simulatorScriptTexts } from '../i18n.js';
import type { SessionRecord } from '../service.js';

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);

/**
 * Scripts and styles only from our own origin, so a strict CSP holds. No frame-ancestors and no
 * X-Frame-Options: the demo shows the simulator in an iframe from another port.
 */
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

export function sendHtml(res: Response, status: number, html: string): void {
  res.status(status).set({
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': CSP,
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
  });
  res.send(html);
}

function layout(opts: { lang: Locale; title: string; base: string; body: string; script?: string }): string {
  return `<!doctype html>
<html lang="${opts.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(opts.title)}</title>
<link rel="stylesheet" href="${escapeHtml(opts.base)}/app/assets/sandbox.css">
${opts.script ? `<script type="module" src="${escapeHtml(opts.base)}${opts.script}"></script>` : ''}
</head>
<body>
${opts.body}
</body>
</html>
`;
}

export function indexPage(base: string): string {
  return layout({
    lang: 'en',
    title: 'verify-kit sandbox',
    base,
    body: `<main class="card">
<h1>verify-kit sandbox</h1>
<p>A local implementation of the identity verification service, version 1.</p>
<ul>
<li><a id="simulator-link" data-testid="simulator-link" href="${escapeHtml(base)}/app/">Open the mobile-app simulator</a></li>
<li>API: <code>${escapeHtml(base)}/api/v1</code> (header <code>x-api-key</code>)</li>
<li>Control API for tests: <code>${escapeHtml(base)}/sandbox/…</code></li>
</ul>
</main>`,
  });
}

export function errorPage(base: string, status: number, message: string): string {
  return layout({
    lang: 'en',
    title: `${status} — verify-kit sandbox`,
    base,
    body: `<main class="card"><h1>${status}</h1><p id="error" data-testid="error">${escapeHtml(message)}</p></main>`,
  });
}

/** Spaces the code in two groups of four, easier to read aloud. */
const spacedCode = (code: string) => `${code.slice(0, 4)} ${code.slice(4)}`;

export function publicSessionPage(base: string, rec: SessionRecord): string {
  const t = publicPageTexts[rec.locale];
  const id = escapeHtml(rec.id);
  return layout({
    lang: rec.locale,
    title: t.title,
    base,
    body: `<main class="card" data-session-id="${id}">
<h1>${escapeHtml(t.title)}</h1>
<p>${escapeHtml(t.scan)}</p>
<img id="qr-code" data-testid="qr-code" src="${escapeHtml(base)}/api/v1/verification-sessions/${id}/qr-code" width="250" height="250" alt="${escapeHtml(t.qrAlt)}">
<p><a id="deep-link" data-testid="deep-link" class="button" href="${escapeHtml(rec.deepLink)}">${escapeHtml(t.openInApp)}</a></p>
<p>${escapeHtml(t.orCode)}</p>
<p id="session-code" data-testid="session-code" class="code" data-code="${escapeHtml(rec.sessionCode)}" aria-label="${escapeHtml(rec.sessionCode.split('').join(' '))}">${escapeHtml(spacedCode(rec.sessionCode))}</p>
<p class="muted">${escapeHtml(t.expires)} <time id="expires-at" datetime="${new Date(rec.expiresAt).toISOString()}">${new Date(rec.expiresAt).toISOString().replace('T', ' ').slice(0, 16)} UTC</time></p>
<p class="muted"><a id="simulator-link" data-testid="simulator-link" href="${escapeHtml(base)}/app/verification-session/${id}">${escapeHtml(t.simulator)}</a></p>
</main>`,
  });
}

function field(id: string, label: string, extra = ''): string {
  return `<div class="field"><label for="${id}">${escapeHtml(label)}</label><input id="${id}" name="${id}" data-testid="${id}" ${extra}></div>`;
}

/** The simulator's single page; its script (served as a file) shows one step at a time. */
export function simulatorPage(base: string, locale: Locale, sessionId: string | undefined): string {
  const t = simulatorPageTexts[locale];
  const other: Locale = locale === 'en' ? 'tr' : 'en';
  const scenarios = SCENARIOS.map(
    (s) => `<option value="${s}">${escapeHtml(t[`scenario_${s}`])}</option>`,
  ).join('');
  const texts = JSON.stringify(simulatorScriptTexts[locale]).replace(/</g, '\\u003c');
  return layout({
    lang: locale,
    title: t.title,
    base,
    script: '/app/assets/simulator.js',
    body: `<main id="app" class="phone" data-base="${escapeHtml(base)}" data-session-id="${escapeHtml(sessionId ?? '')}" data-locale="${locale}">
<header>
<h1>${escapeHtml(t.title)}</h1>
<p class="muted">${escapeHtml(t.intro)}</p>
${sessionId ? '' : `<p class="muted"><a id="language-link" data-testid="language-link" href="?lang=${other}" lang="${other}">${other === 'tr' ? 'Türkçe' : 'English'}</a></p>`}
<p id="session-info" data-testid="session-info" class="muted" hidden></p>
</header>
<p id="error" data-testid="error" class="error" role="alert" hidden></p>

<section id="step-code" data-testid="step-code" hidden>
<form id="code-form" novalidate>
<div class="field"><label for="code-input">${escapeHtml(t.codeLabel)}</label>
<input id="code-input" name="code" data-testid="code-input" autocomplete="off" autocapitalize="characters" spellcheck="false" aria-describedby="code-hint">
<small id="code-hint" class="muted">${escapeHtml(t.codeHint)}</small></div>
<button id="code-submit" data-testid="code-submit" type="submit">${escapeHtml(t.codeSubmit)}</button>
</form>
</section>

<section id="step-otp" data-testid="step-otp" hidden>
<h2>${escapeHtml(t.otpTitle)}</h2>
<p id="otp-intro" data-testid="otp-intro"></p>
<div class="inbox" aria-labelledby="inbox-title"><h3 id="inbox-title">${escapeHtml(t.inboxTitle)}</h3>
<p id="otp-message" data-testid="otp-message" role="status"></p></div>
<form id="otp-form" novalidate>
${field('otp-input', t.otpLabel, 'inputmode="numeric" autocomplete="one-time-code" maxlength="6"')}
<button id="otp-submit" data-testid="otp-submit" type="submit">${escapeHtml(t.otpSubmit)}</button>
<button id="otp-fill" data-testid="otp-fill" type="button" class="secondary">${escapeHtml(t.otpFill)}</button>
<button id="otp-resend" data-testid="otp-resend" type="button" class="secondary">${escapeHtml(t.otpResend)}</button>
</form>
</section>

<section id="step-document" data-testid="step-document" hidden>
<h2>${escapeHtml(t.documentTitle)}</h2>
<p id="resubmit-note" data-testid="resubmit-note" class="note" hidden></p>
<form id="document-form" novalidate>
<div class="field"><label for="document-preset">${escapeHtml(t.presetLabel)}</label>
<select id="document-preset" name="preset" data-testid="document-preset"></select></div>
<div class="field"><label for="doc-type">${escapeHtml(t.typeLabel)}</label>
<select id="doc-type" name="type" data-testid="doc-type"><option value="I">${escapeHtml(t.typeI)}</option><option value="P">${escapeHtml(t.typeP)}</option></select></div>
${field('doc-number', t.numberLabel, 'autocomplete="off" required')}
${field('doc-personal-number', t.personalNumberLabel, 'autocomplete="off"')}
${field('doc-given-name', t.givenNameLabel, 'autocomplete="off" required')}
${field('doc-surname', t.surnameLabel, 'autocomplete="off" required')}
${field('doc-country', t.countryLabel, 'autocomplete="off" maxlength="3" required')}
<div class="field"><label for="scenario">${escapeHtml(t.scenarioLabel)}</label>
<select id="scenario" name="scenario" data-testid="scenario">${scenarios}</select></div>
<button id="document-submit" data-testid="document-submit" type="submit">${escapeHtml(t.documentSubmit)}</button>
</form>
</section>

<section id="step-status" data-testid="step-status" hidden>
<h2>${escapeHtml(t.statusTitle)}</h2>
<p id="status" data-testid="status" data-status="" role="status" aria-live="polite"></p>
</section>

<section id="step-expired" data-testid="step-expired" hidden>
<h2>${escapeHtml(t.expiredTitle)}</h2>
<p>${escapeHtml(t.expiredText)}</p>
</section>

<p><a id="start-over" data-testid="start-over" href="${escapeHtml(base)}/app/" hidden>${escapeHtml(t.startOver)}</a></p>
<script type="application/json" id="texts">${texts}</script>
</main>`,
  });
}
