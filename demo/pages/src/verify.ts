import '@verify-kit/widget';
import { api, messageOf } from './api.js';
import { $, clearMessage, loadMe, showMessage, startOver } from './chrome.js';
import { describeScenario } from './describe-scenario.js';
import type { ActivityEntry, Me } from './types.js';

const OUTCOME: Record<string, string> = {
  awaiting_user: 'Waiting for you to open the session in the app.',
  in_review: 'The service is reviewing the document.',
  approved: 'Approved: your account page is open.',
  rejected: 'Rejected: your account page stays closed.',
  resubmission_required: 'The service asks for the document again.',
  expired: 'The session expired before it was finished.',
};

async function main(): Promise<void> {
  const me = await loadMe();
  if (me === undefined) return;
  $('#scenario-summary').textContent = describeScenario(me.scenario);
  const widget = mountWidget(me);
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

function mountWidget(me: Me): HTMLElementTagNameMap['verify-identity'] {
  const widget = document.createElement('verify-identity');
  widget.setAttribute('endpoint', '/identity');
  widget.setAttribute('locale', me.scenario.locale);
  widget.setAttribute('auto-start', '');
  const done = document.createElement('a');
  done.slot = 'done';
  done.className = 'button';
  done.href = '/account';
  done.textContent = me.scenario.locale === 'tr' ? 'Hesabınıza devam edin' : 'Continue to your account';
  widget.append(done);

  widget.addEventListener('phase-change', (event) => {
    const { phase } = (event as CustomEvent<{ phase: string }>).detail;
    $('#outcome').textContent = OUTCOME[phase] ?? '';
    widget.dataset.phase = phase;
    if (me.upstream.simulator) void showSimulator();
  });
  widget.addEventListener('error', (event) => {
    const { message } = (event as unknown as CustomEvent<{ message?: string }>).detail ?? {};
    $('#outcome').textContent = message ?? 'The verification could not continue.';
    if (($('#simulator') as HTMLIFrameElement).hidden) {
      $('#phone-waiting').textContent = 'The phone opens here once a verification session exists.';
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

function followActivity(): void {
  const render = async () => {
    if (document.visibilityState !== 'visible') return;
    try {
      const { entries } = await api<{ entries: ActivityEntry[] }>('/api/demo/activity');
      renderActivity(entries);
    } catch {
      // The widget already tells the person when the server is unreachable.
    }
  };
  void render();
  setInterval(render, 1500);
}

function renderActivity(entries: readonly ActivityEntry[]): void {
  const body = $('#activity');
  const rows = groupRepeats([...entries].reverse()).map(({ entry, count }) => {
    const row = document.createElement('tr');
    row.className = `activity-${entry.kind}`;
    const [what, detail] = describeEntry(entry);
    const cells = [new Date(entry.at).toLocaleTimeString(), count > 1 ? `${what} ×${count}` : what, detail];
    for (const text of cells) {
      const cell = document.createElement('td');
      cell.textContent = text;
      row.append(cell);
    }
    return row;
  });
  if (rows.length === 0) {
    const row = document.createElement('tr');
    const cell = document.createElement('td');
    cell.colSpan = 3;
    cell.textContent = 'Nothing yet.';
    row.append(cell);
    rows.push(row);
  }
  body.replaceChildren(...rows);
}

/**
 * Routine rows repeat (the widget's status reads, the gate's answers): an entry the same as an
 * earlier one since the last milestone (a webhook or a status change) joins its row, shown as
 * "Status read, kit → service ×12" at the newest time.
 */
function groupRepeats(entries: readonly ActivityEntry[]): { entry: ActivityEntry; count: number }[] {
  const groups: { entry: ActivityEntry; count: number }[] = [];
  let routine = new Map<string, { entry: ActivityEntry; count: number }>();
  for (const entry of entries) {
    if (entry.kind === 'webhook' || entry.kind === 'status_change') {
      routine = new Map();
      groups.push({ entry, count: 1 });
      continue;
    }
    const key = describeEntry(entry).join('|');
    const group = routine.get(key);
    if (group !== undefined) {
      group.count += 1;
      continue;
    }
    const fresh = { entry, count: 1 };
    routine.set(key, fresh);
    groups.push(fresh);
  }
  return groups;
}

function describeEntry(entry: ActivityEntry): [string, string] {
  switch (entry.kind) {
    case 'webhook':
      return [`Webhook ${entry.type ?? ''}`.trim(), 'signature valid · accepted by the kit'];
    case 'status_change':
      return [
        'Status changed',
        `${entry.previousStatus ?? '(new)'} → ${entry.status} (${entry.phase.replaceAll('_', ' ')})`,
      ];
    case 'status_call':
      return ['Status read, kit → service', `${entry.method} ${entry.path} → ${entry.outcome}`];
    case 'gate': {
      const answers: Record<number, string> = {
        200: 'open: approved',
        303: 'closed: sent to /verify',
        403: 'closed: not approved',
        503: 'closed: the service could not be reached',
      };
      return [`Gate on ${entry.path}`, answers[entry.answer] ?? `closed (${entry.answer})`];
    }
  }
}

void main();
