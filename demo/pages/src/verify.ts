import '@verify-kit/widget';
import { followActivity } from './activity-table.js';
import { api, messageOf } from './api.js';
import { $, clearMessage, loadMe, showMessage, startOver } from './chrome.js';
import { describeScenario } from './describe-scenario.js';
import { mountReviewer, type Reviewer } from './reviewer.js';
import { type DemoKey, t } from './text/index.js';
import type { Me } from './types.js';

const OUTCOME: Record<string, DemoKey> = {
  awaiting_user: 'outcomeAwaiting',
  in_review: 'outcomeReview',
  in_manual_review: 'outcomeManualReview',
  approved: 'outcomeApproved',
  rejected: 'outcomeRejected',
  resubmission_required: 'outcomeResubmit',
  expired: 'outcomeExpired',
};

async function main(): Promise<void> {
  const me = await loadMe();
  if (me === undefined) return;
  $('#scenario-summary').textContent = describeScenario(me.scenario);
  const widget = mountWidget(me, mountReviewer());
  $('#start-over').addEventListener('click', async () => {
    clearMessage();
    try {
      await startOver();
      // The element resumes the session just bound (and the phone follows on phase-change).
      await widget.start();
    } catch (error) {
      showMessage(messageOf(error));
    }
  });
  followActivity();
}

function mountWidget(me: Me, reviewer: Reviewer): HTMLElementTagNameMap['verify-identity'] {
  const widget = document.createElement('verify-identity');
  widget.setAttribute('endpoint', '/identity');
  widget.setAttribute('locale', me.scenario.locale);
  widget.setAttribute('auto-start', '');
  const done = document.createElement('a');
  done.slot = 'done';
  done.className = 'button';
  done.href = '/account';
  done.textContent = t().continueToAccount;
  widget.append(done);

  widget.addEventListener('phase-change', (event) => {
    const { phase } = event.detail;
    const outcome = OUTCOME[phase];
    $('#outcome').textContent = outcome === undefined ? '' : t()[outcome];
    widget.dataset.phase = phase;
    reviewer.follow(phase);
    if (me.upstream.simulator) void showSimulator();
  });
  widget.addEventListener('verify-identity-error', (event) => {
    $('#outcome').textContent = event.detail?.message ?? t().outcomeError;
    if (($('#simulator') as HTMLIFrameElement).hidden) {
      $('#phone-waiting').textContent = t().phoneNoSession;
    }
  });
  $('#widget-slot').append(widget);
  if (me.upstream.simulator) $('#phone-panel').hidden = false;
  return widget;
}

/** Opens the sandbox's simulator on the bound session, again whenever the session changes. */
async function showSimulator(): Promise<void> {
  const frame = $('#simulator') as HTMLIFrameElement;
  try {
    const { url } = await api<{ url: string }>('/api/demo/simulator-url');
    if (frame.src !== url) frame.src = url;
    frame.hidden = false;
    $('#phone-waiting').hidden = true;
  } catch (error) {
    $('#phone-waiting').textContent = messageOf(error);
  }
}

void main();
