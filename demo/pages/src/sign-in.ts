import { ApiError, api, messageOf } from './api.js';
import { $, clearMessage, loadMe, safeReturnTo, showMessage } from './chrome.js';
import { fill, t } from './text/index.js';

const returnTo = safeReturnTo(new URLSearchParams(location.search).get('returnTo'), '/verify');

async function main(): Promise<void> {
  const me = await loadMe();
  if (me === undefined) return;
  if (me.user) {
    $('#welcome').textContent = fill(t().welcomeName, { name: me.user.name });
    $('#signed-in-card').hidden = false;
    return;
  }
  $('#sign-in-card').hidden = false;
  const form = $('#sign-in-form') as HTMLFormElement;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearMessage();
    const data = new FormData(form);
    const button = $('#sign-in') as HTMLButtonElement;
    button.disabled = true;
    try {
      await api('/api/demo/sign-in', {
        method: 'POST',
        body: { name: data.get('name'), email: data.get('email') },
      });
      location.assign(returnTo);
    } catch (error) {
      button.disabled = false;
      const detail = error instanceof ApiError ? error.details.map((d) => d.message).filter(Boolean) : [];
      showMessage(
        detail.length > 0 ? fill(t().checkForm, { problems: detail.join('; ') }) : messageOf(error),
      );
    }
  });
}

void main();
