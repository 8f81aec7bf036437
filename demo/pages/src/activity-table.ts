import { api } from './api.js';
import { $ } from './chrome.js';
import { fill, t } from './text/index.js';
import type { ActivityEntry } from './types.js';

/*
 * "What happened behind the scenes": the activity log of the bound verification, read every 1.5 s
 * while the page is visible.
 */

export function followActivity(): void {
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
    const time = new Date(entry.at).toLocaleTimeString(document.documentElement.lang);
    for (const text of [time, count > 1 ? `${what} ×${count}` : what, detail]) {
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
    cell.textContent = t().nothingYet;
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
  const text = t();
  switch (entry.kind) {
    case 'webhook':
      return [fill(text.webhook, { type: entry.type ?? '' }).trim(), text.webhookAccepted];
    case 'status_change':
      return [
        text.statusChanged,
        `${entry.previousStatus ?? text.statusNew} → ${entry.status} (${entry.phase.replaceAll('_', ' ')})`,
      ];
    case 'status_call':
      return [text.statusRead, `${entry.method} ${entry.path} → ${entry.outcome}`];
    case 'gate': {
      const answers: Record<number, string> = {
        200: text.gateOpen,
        // The browser's copy was still good (a conditional request): the gate let it through.
        304: text.gateOpen,
        303: text.gateToVerify,
        403: text.gateNotApproved,
        503: text.gateUnavailable,
      };
      const answer = answers[entry.answer] ?? fill(text.gateClosed, { answer: entry.answer });
      const source =
        entry.source === undefined
          ? undefined
          : entry.source === 'stored'
            ? text.gateFromStored
            : text.gateFromRead;
      return [
        fill(text.gateOn, { path: entry.path }),
        source === undefined ? answer : `${answer} · ${source}`,
      ];
    }
  }
}
