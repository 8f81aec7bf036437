/*
 * A form's refusals shown where they belong: each message right after its field, tied to it with
 * aria-describedby and aria-invalid, so a screen reader reads it with the field.
 */

let notes = 0;

/** The words a person reads for `field`: its aria-label, its <label>, or its fieldset's legend. */
export function labelOf(field: HTMLElement): string {
  const named =
    field.getAttribute('aria-label') ??
    (field.id ? document.querySelector(`label[for="${field.id}"]`)?.textContent : undefined) ??
    field.closest('fieldset')?.querySelector('legend')?.textContent;
  return (named ?? '').trim();
}

export function showFieldError(field: HTMLElement, message: string): void {
  const note = document.createElement('p');
  note.className = 'field-error';
  note.id = `field-error-${++notes}`;
  note.textContent = message;
  field.setAttribute('aria-invalid', 'true');
  field.setAttribute('aria-describedby', note.id);
  // A checkbox or radio sits inside its label: the note goes after the label.
  const anchor = field.closest('label') ?? field;
  anchor.insertAdjacentElement('afterend', note);
}

export function clearFieldErrors(root: HTMLElement): void {
  for (const note of root.querySelectorAll('.field-error')) note.remove();
  for (const field of root.querySelectorAll('[aria-invalid]')) {
    field.removeAttribute('aria-invalid');
    field.removeAttribute('aria-describedby');
  }
}

/** "enter at least 1 minute" → "Enter at least 1 minute." */
export function sentence(text: string): string {
  const capital = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?)]$/.test(capital) ? capital : `${capital}.`;
}
