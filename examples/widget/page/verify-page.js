// /assets/verify-page.js (a file, not an inline script, so a strict CSP is fine)
const el = document.querySelector('verify-identity');
el?.addEventListener('approved', () => location.assign('/account'));
el?.addEventListener('verify-identity-error', (e) => console.warn('verification error', e.detail.code));
