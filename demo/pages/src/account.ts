import { ApiError, api, messageOf } from './api.js';
import { $, loadMe, showMessage } from './chrome.js';
import { fill, t } from './text/index.js';
import type { DemoUser } from './types.js';

async function main(): Promise<void> {
  await loadMe();
  const state = $('#account-state');
  try {
    const account = await api<{ user: DemoUser; verified: boolean }>('/api/demo/account');
    state.textContent = fill(t().accountOpen, { name: account.user.name });
    $('#account-name').textContent = account.user.name;
    $('#account-email').textContent = account.user.email;
    $('#account-verified').textContent = t().accountVerified;
    $('#account-details').hidden = false;
    $('#forget-row').hidden = false;
    $('#forget').addEventListener('click', forgetVerification);
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) {
      state.textContent = `${t().accountClosed} `;
      const link = document.createElement('a');
      link.href = '/verify';
      link.textContent = t().verifyLink;
      state.append(link);
    } else {
      state.textContent = messageOf(error);
    }
  }
}

/** kit.forget: this account's verification is unbound; the gate refuses it from now on. */
async function forgetVerification(): Promise<void> {
  const button = $('#forget') as HTMLButtonElement;
  button.disabled = true;
  try {
    await api('/api/demo/forget', { method: 'POST', body: {} });
    location.assign('/verify');
  } catch (error) {
    button.disabled = false;
    showMessage(messageOf(error));
  }
}

void main();
