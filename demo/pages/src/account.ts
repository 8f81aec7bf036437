import { ApiError, api, messageOf } from './api.js';
import { $, loadMe, showMessage } from './chrome.js';
import type { DemoUser } from './types.js';

async function main(): Promise<void> {
  await loadMe();
  const state = $('#account-state');
  try {
    const account = await api<{ user: DemoUser; verified: boolean }>('/api/demo/account');
    state.textContent = `Welcome, ${account.user.name}. Your identity is verified, so your account is open.`;
    $('#account-name').textContent = account.user.name;
    $('#account-email').textContent = account.user.email;
    $('#account-verified').textContent = 'Verified and approved by the identity verification service';
    $('#account-details').hidden = false;
    $('#forget-row').hidden = false;
    $('#forget').addEventListener('click', forgetVerification);
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) {
      state.textContent = 'Your verification is not approved (any more), so your account stays closed. ';
      const link = document.createElement('a');
      link.href = '/verify';
      link.textContent = 'Verify your identity';
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
