import { ApiError, api, messageOf } from './api.js';
import { $, clearMessage, loadMe, showMessage, startOver } from './chrome.js';
import { clearFieldErrors, labelOf, sentence, showFieldError } from './field-errors.js';
import type { Criterion, Scenario } from './types.js';

const CRITERION_TYPES = [
  ['DOCUMENT_OWNER_NAME', 'Given name'],
  ['DOCUMENT_OWNER_SURNAME', 'Surname'],
  ['DOCUMENT_NUMBER', 'Document number'],
  ['DOCUMENT_PERSONAL_NUMBER', 'Personal number'],
  ['DOCUMENT_TYPE', 'Document type (I or P)'],
  ['DOCUMENT_COUNTRY', 'Country (ISO alpha-3)'],
] as const;
const CONDITIONS = ['EQUALS', 'NOT_EQUALS', 'CONTAINS', 'NOT_CONTAINS', 'STARTS_WITH', 'ENDS_WITH'] as const;
const DEFAULT_PHONE = '+90 555 010 00 00';

const PRESETS: Record<string, Scenario> = {
  approve: { contact: 'email', sendOTP: false, locale: 'en', duration: 30, approvalCriteria: [] },
  'otp-email': { contact: 'email', sendOTP: true, locale: 'en', duration: 30, approvalCriteria: [] },
  'otp-phone': {
    contact: 'phone',
    phoneNumber: DEFAULT_PHONE,
    sendOTP: true,
    locale: 'en',
    duration: 30,
    approvalCriteria: [],
  },
  contactless: { contact: 'none', sendOTP: false, locale: 'en', duration: 30, approvalCriteria: [] },
  turkish: {
    contact: 'none',
    sendOTP: false,
    locale: 'tr',
    duration: 30,
    approvalCriteria: [
      {
        type: 'DOCUMENT_OWNER_NAME',
        condition: 'EQUALS',
        value: 'seyma',
        rejectIfNotMet: true,
        accentInsensitive: true,
      },
      {
        type: 'DOCUMENT_OWNER_SURNAME',
        condition: 'EQUALS',
        value: 'isik',
        rejectIfNotMet: true,
        accentInsensitive: true,
      },
    ],
  },
  'passport-only': {
    contact: 'email',
    sendOTP: false,
    locale: 'en',
    duration: 30,
    approvalCriteria: [{ type: 'DOCUMENT_TYPE', condition: 'EQUALS', value: 'P', rejectIfNotMet: true }],
  },
};

const form = () => $('#scenario-form') as HTMLFormElement;

function option(value: string, label: string): HTMLOptionElement {
  const element = document.createElement('option');
  element.value = value;
  element.textContent = label;
  return element;
}

function labelled<T extends HTMLElement>(element: T, label: string): T {
  element.setAttribute('aria-label', label);
  return element;
}

function criterionRow(criterion: Criterion, index: number): HTMLTableRowElement {
  const row = document.createElement('tr');
  row.className = 'criterion';
  const type = labelled(document.createElement('select'), `Criterion ${index + 1}: field`);
  type.name = 'type';
  for (const [value, label] of CRITERION_TYPES) type.append(option(value, label));
  type.value = criterion.type;
  const condition = labelled(document.createElement('select'), `Criterion ${index + 1}: condition`);
  condition.name = 'condition';
  for (const value of CONDITIONS) condition.append(option(value, value.replace('_', ' ').toLowerCase()));
  condition.value = criterion.condition;
  const value = labelled(document.createElement('input'), `Criterion ${index + 1}: value`);
  value.name = 'value';
  value.value = criterion.value;
  const reject = labelled(document.createElement('input'), `Criterion ${index + 1}: reject if not met`);
  reject.type = 'checkbox';
  reject.name = 'rejectIfNotMet';
  reject.checked = criterion.rejectIfNotMet === true;
  const accents = labelled(
    document.createElement('input'),
    `Criterion ${index + 1}: ignore accents and case`,
  );
  accents.type = 'checkbox';
  accents.name = 'accentInsensitive';
  accents.checked = criterion.accentInsensitive === true;
  const remove = document.createElement('button');
  remove.type = 'button';
  remove.className = 'secondary';
  remove.textContent = 'Remove';
  remove.setAttribute('aria-label', `Remove criterion ${index + 1}`);
  remove.addEventListener('click', () => {
    renderCriteria(readCriteria().filter((_, i) => i !== index));
  });
  const headings = ['Field', 'Condition', 'Value', 'Reject if not met', 'Ignore accents and case', ''];
  for (const [i, control] of [type, condition, value, reject, accents, remove].entries()) {
    const cell = document.createElement('td');
    // Narrow screens stack the table: each cell then shows its column's name (CSS ::before).
    cell.dataset.label = headings[i] ?? '';
    cell.append(control);
    row.append(cell);
  }
  return row;
}

function renderCriteria(criteria: readonly Criterion[]): void {
  $('#criteria').replaceChildren(...criteria.map(criterionRow));
}

function readCriteria(): Criterion[] {
  return [...document.querySelectorAll<HTMLTableRowElement>('#criteria tr.criterion')].map((row) => {
    const field = <T extends HTMLElement>(name: string) => row.querySelector(`[name="${name}"]`) as T;
    return {
      type: field<HTMLSelectElement>('type').value,
      condition: field<HTMLSelectElement>('condition').value,
      value: field<HTMLInputElement>('value').value,
      rejectIfNotMet: field<HTMLInputElement>('rejectIfNotMet').checked,
      accentInsensitive: field<HTMLInputElement>('accentInsensitive').checked,
    };
  });
}

function fill(scenario: Scenario): void {
  const f = form();
  for (const radio of f.querySelectorAll<HTMLInputElement>('input[name="contact"]')) {
    radio.checked = radio.value === scenario.contact;
  }
  ($('#phone-number') as HTMLInputElement).value = scenario.phoneNumber ?? DEFAULT_PHONE;
  ($('#send-otp') as HTMLInputElement).checked = scenario.sendOTP;
  ($('#locale') as HTMLSelectElement).value = scenario.locale;
  ($('#duration') as HTMLInputElement).value = String(scenario.duration);
  renderCriteria(scenario.approvalCriteria);
}

function read(): Record<string, unknown> {
  const contact = form().querySelector<HTMLInputElement>('input[name="contact"]:checked')?.value ?? 'email';
  const phoneNumber = ($('#phone-number') as HTMLInputElement).value.trim();
  return {
    contact,
    sendOTP: ($('#send-otp') as HTMLInputElement).checked,
    ...(contact === 'phone' && phoneNumber !== '' ? { phoneNumber } : {}),
    locale: ($('#locale') as HTMLSelectElement).value,
    duration: Number(($('#duration') as HTMLInputElement).value),
    approvalCriteria: readCriteria(),
  };
}

async function save(): Promise<boolean> {
  clearMessage();
  clearFieldErrors(form());
  try {
    await api('/api/demo/scenario', { method: 'PUT', body: read() });
    return true;
  } catch (error) {
    const details = error instanceof ApiError ? error.details : [];
    if (details.length === 0) {
      showMessage(messageOf(error));
      return false;
    }
    // One note per field (a phone number can break two rules), and a summary in the message box.
    const byField = new Map<HTMLElement, string[]>();
    for (const { path, message } of details) {
      const field = fieldOf(path ?? '');
      byField.set(field, [...(byField.get(field) ?? []), sentence(message ?? '')]);
    }
    for (const [field, messages] of byField) showFieldError(field, messages.join(' '));
    const summary = [...byField].map(([field, messages]) =>
      [labelOf(field), messages.join(' ')].filter(Boolean).join(': '),
    );
    showMessage(`The scenario was not saved. ${summary.join(' ')}`);
    return false;
  }
}

/** The form's field for a path of the server's answer, e.g. approvalCriteria.0.value. */
function fieldOf(path: string): HTMLElement {
  const criterion = /^approvalCriteria\.(\d+)\.(\w+)$/.exec(path);
  if (criterion) {
    const row = document.querySelectorAll('#criteria tr.criterion')[Number(criterion[1])];
    const field = row?.querySelector<HTMLElement>(`[name="${criterion[2]}"]`);
    if (field) return field;
  }
  const selector = FIELDS[path.split('.')[0] ?? ''];
  return (selector && document.querySelector<HTMLElement>(selector)) || $('#run');
}

const FIELDS: Record<string, string> = {
  contact: 'input[name="contact"]',
  phoneNumber: '#phone-number',
  sendOTP: '#send-otp',
  locale: '#locale',
  duration: '#duration',
  approvalCriteria: '#add-criterion',
};

async function main(): Promise<void> {
  // The playground, where the language is chosen, stays English (the integrator's tool).
  const me = await loadMe({ pageLocale: 'en' });
  if (me === undefined || me.user === null) return;
  fill(me.scenario);
  for (const button of document.querySelectorAll<HTMLButtonElement>('[data-preset]')) {
    button.addEventListener('click', () => {
      const preset = PRESETS[button.dataset.preset ?? ''];
      if (preset) fill(preset);
    });
  }
  $('#add-criterion').addEventListener('click', () => {
    renderCriteria([...readCriteria(), { type: 'DOCUMENT_OWNER_NAME', condition: 'EQUALS', value: '' }]);
  });
  $('#save-only').addEventListener('click', async () => {
    if (await save()) showMessage('Saved. The next new session uses this scenario.', 'info');
  });
  form().addEventListener('submit', async (event) => {
    event.preventDefault();
    if (!(await save())) return;
    try {
      await startOver();
      location.assign('/verify');
    } catch (error) {
      showMessage(messageOf(error));
    }
  });
  // Filled and listening: what is typed or clicked from now on is neither overwritten nor lost.
  form().dataset.ready = '';
}

void main();
