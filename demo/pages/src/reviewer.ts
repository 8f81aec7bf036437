import { api, messageOf } from './api.js';
import { $, clearMessage, showMessage } from './chrome.js';

/*
 * The sandbox's reviewer in the phone panel: shown while the verification waits for a person at the
 * service (in_manual_review). A button asks the demo server to decide the verification bound to this
 * account (POST /api/demo/review); the widget then follows the outcome like any other.
 */

export interface Reviewer {
  /** Shows the buttons in manual review only; a new phase makes them usable again. */
  follow(phase: string): void;
}

export function mountReviewer(): Reviewer {
  const panel = $('#reviewer');
  const buttons = [...panel.querySelectorAll<HTMLButtonElement>('button[data-decision]')];
  for (const button of buttons) {
    button.addEventListener('click', async () => {
      clearMessage();
      for (const b of buttons) b.disabled = true;
      try {
        await api('/api/demo/review', { method: 'POST', body: { decision: button.dataset.decision } });
      } catch (error) {
        for (const b of buttons) b.disabled = false;
        showMessage(messageOf(error));
      }
    });
  }
  return {
    follow(phase) {
      panel.hidden = phase !== 'in_manual_review';
      for (const b of buttons) b.disabled = false;
    },
  };
}
