// The mobile-app simulator of the verify-kit sandbox. Plain browser JavaScript (no build step),
// loaded as a same-origin module so a strict Content-Security-Policy holds. It talks to the
// sandbox's control API, keyed by the session id, exactly as the real app would talk to the service.

const root = document.getElementById('app');
const base = root.dataset.base ?? '';
const sessionId = root.dataset.sessionId ?? '';
const locale = root.dataset.locale === 'tr' ? 'tr' : 'en';
const texts = JSON.parse(document.getElementById('texts').textContent);

const FINAL = ['APPROVED', 'REJECTED'];
const POLL_MS = 700;
const STEPS = ['step-code', 'step-otp', 'step-document', 'step-status', 'step-expired'];

const $ = (id) => document.getElementById(id);
const t = (key, vars = {}) =>
  (texts[key] ?? key).replace(/\{(\w+)\}/g, (_, name) => (name in vars ? String(vars[name]) : `{${name}}`));

let presets = [];
let pollTimer;
let lastOtp = '';

function show(step) {
  for (const id of STEPS) $(id).hidden = id !== step;
  $('start-over').hidden = step === 'step-code';
}

function showError(message) {
  const box = $('error');
  box.textContent = message;
  box.hidden = !message;
}

async function call(method, path, body) {
  let res;
  try {
    res = await fetch(`${base}${path}`, {
      method,
      headers: body === undefined ? { accept: 'application/json' } : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    return { ok: false, status: 0, data: null };
  }
  const data = res.status === 204 ? null : await res.json().catch(() => null);
  return { ok: res.ok, status: res.status, data };
}

function errorText(result) {
  if (result.status === 0) return t('network');
  return t('failed', { message: result.data?.error?.message ?? `HTTP ${result.status}` });
}

// ---- step 1: a code or a deep link ------------------------------------------------------------

function openCodeStep() {
  show('step-code');
  $('code-input').focus();
}

$('code-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  showError('');
  const value = $('code-input').value.trim();
  const fromLink = value.match(/verification-session\/([0-9a-f-]{36})/i);
  if (fromLink) {
    location.assign(`${base}/app/verification-session/${fromLink[1]}`);
    return;
  }
  const code = value.replace(/[\s-]+/g, '');
  if (!/^[A-Za-z0-9]{8}$/.test(code)) {
    showError(t('codeInvalid'));
    return;
  }
  const result = await call('GET', `/sandbox/sessions/by-code/${encodeURIComponent(code)}`);
  if (result.ok) location.assign(`${base}/app/verification-session/${result.data.id}`);
  else if (result.status === 404) showError(t('codeUnknown'));
  else if (result.status === 410) showError(t('codeExpired'));
  else showError(errorText(result));
});

// ---- the session ---------------------------------------------------------------------------------

async function loadSession() {
  const result = await call('GET', `/sandbox/sessions/${encodeURIComponent(sessionId)}`);
  if (result.status === 410) {
    stopPolling();
    show('step-expired');
    return;
  }
  if (result.status === 404) {
    stopPolling();
    showError(t('sessionUnknown'));
    openCodeStep();
    return;
  }
  if (!result.ok) {
    showError(errorText(result));
    return;
  }
  render(result.data);
}

function render(view) {
  const info = $('session-info');
  info.textContent = t('sessionInfo', {
    code: view.sessionCode,
    time: new Date(view.expiresAt).toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' }),
  });
  info.hidden = false;
  if (view.needsOtp) {
    if ($('step-otp').hidden) openOtpStep(view);
    return;
  }
  if (view.canSubmit) {
    stopPolling();
    if ($('step-document').hidden) openDocumentStep(view);
    return;
  }
  showStatus(view.status);
  if (FINAL.includes(view.status)) stopPolling();
  else schedulePoll();
}

function showStatus(status) {
  show('step-status');
  const el = $('status');
  el.dataset.status = status;
  el.textContent = texts[`status_${status}`] ? t(`status_${status}`) : t('status_unknown', { status });
}

function schedulePoll() {
  clearTimeout(pollTimer);
  pollTimer = setTimeout(loadSession, POLL_MS);
}

function stopPolling() {
  clearTimeout(pollTimer);
}

// ---- step 2: the one-time password ---------------------------------------------------------------

// The step shows once its message is in: text arriving above the form after it showed moved the
// Confirm button under a finger already on its way (a click in e2e landed where it had been).
async function openOtpStep(view) {
  $('otp-intro').textContent = view.contact ? t('otpSentTo', { contact: view.contact.masked }) : '';
  await refreshInbox();
  show('step-otp');
  $('otp-input').focus();
}

async function refreshInbox() {
  const result = await call('GET', `/sandbox/sessions/${encodeURIComponent(sessionId)}/messages`);
  const otps = result.ok ? result.data.messages.filter((m) => m.kind === 'otp') : [];
  const latest = otps[otps.length - 1];
  lastOtp = latest?.otp ?? '';
  $('otp-message').textContent = latest ? latest.text : t('otpNoMessage');
}

$('otp-fill').addEventListener('click', () => {
  $('otp-input').value = lastOtp;
  $('otp-input').focus();
});

$('otp-resend').addEventListener('click', async () => {
  showError('');
  const result = await call('POST', `/sandbox/sessions/${encodeURIComponent(sessionId)}/otp/resend`);
  if (!result.ok) {
    showError(result.status === 410 ? t('codeExpired') : errorText(result));
    return;
  }
  await refreshInbox();
  $('otp-input').value = '';
  showError(t('otpResent'));
});

$('otp-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  showError('');
  const code = $('otp-input').value.trim();
  if (!/^\d{6}$/.test(code)) {
    showError(t('otpShape'));
    return;
  }
  const result = await call('POST', `/sandbox/sessions/${encodeURIComponent(sessionId)}/otp`, { code });
  if (result.ok) {
    await loadSession();
    return;
  }
  const codeName = result.data?.error?.code;
  if (codeName === 'OTP_INVALID') {
    showError(t('otpInvalid', { n: result.data.error.details?.[0]?.triesLeft ?? 0 }));
  } else if (codeName === 'OTP_EXPIRED') showError(t('otpExpired'));
  else if (codeName === 'OTP_TOO_MANY_TRIES') showError(t('otpTooMany'));
  else if (result.status === 410) show('step-expired');
  else showError(errorText(result));
});

// ---- step 3: the document ------------------------------------------------------------------------

const FIELDS = {
  type: 'doc-type',
  number: 'doc-number',
  personalNumber: 'doc-personal-number',
  givenName: 'doc-given-name',
  surname: 'doc-surname',
  country: 'doc-country',
};

async function loadPresets() {
  if (presets.length > 0) return;
  const result = await call('GET', '/sandbox/test-documents');
  presets = result.ok ? result.data.documents : [];
  const select = $('document-preset');
  select.replaceChildren(
    ...presets.map((p) => {
      const option = document.createElement('option');
      option.value = p.id;
      option.textContent = p.label[locale] ?? p.label.en;
      return option;
    }),
  );
  applyPreset(presets[0]?.id);
}

function applyPreset(id) {
  const preset = presets.find((p) => p.id === id);
  if (!preset) return;
  for (const [key, fieldId] of Object.entries(FIELDS)) $(fieldId).value = preset.document[key] ?? '';
}

$('document-preset').addEventListener('change', (event) => applyPreset(event.target.value));

async function openDocumentStep(view) {
  show('step-document');
  const note = $('resubmit-note');
  note.textContent = view.status === 'RESUBMISSION_REQUIRED' ? t('resubmit') : '';
  note.hidden = view.status !== 'RESUBMISSION_REQUIRED';
  await loadPresets();
}

$('document-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  showError('');
  const body = { scenario: $('scenario').value };
  for (const [key, fieldId] of Object.entries(FIELDS)) {
    const value = $(fieldId).value.trim();
    if (value !== '' || key !== 'personalNumber') body[key] = value;
  }
  const button = $('document-submit');
  button.disabled = true;
  const result = await call('POST', `/sandbox/sessions/${encodeURIComponent(sessionId)}/documents`, body);
  button.disabled = false;
  if (result.ok) {
    showStatus(result.data.status);
    schedulePoll();
    return;
  }
  if (result.status === 410) {
    show('step-expired');
    return;
  }
  const details = result.data?.error?.details;
  const first = Array.isArray(details) ? details[0] : undefined;
  showError(first ? `${first.path}: ${first.message}` : errorText(result));
});

// ---- start ----------------------------------------------------------------------------------------

if (sessionId) loadSession();
else openCodeStep();
