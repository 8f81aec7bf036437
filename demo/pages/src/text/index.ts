import { type DemoText, en } from './en.js';
import { inlineParts } from './inline.js';
import { tr } from './tr.js';

/*
 * Which language the demo's pages speak: the scenario's locale, the one the widget and the app
 * speak too. English is written into the HTML by the build; `useLocale` swaps in another table.
 */

export type { DemoText };
export type DemoLocale = 'en' | 'tr';
const TABLES: Record<DemoLocale, DemoText> = { en, tr };
let current: DemoText = en;

/** The table of the page's language (English until `useLocale`). */
export function t(): DemoText {
  return current;
}

/** `template` with each `{key}` replaced by its value. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in values ? String(values[key]) : whole,
  );
}

/** The text as nodes: plain runs as text, backticked runs as <code>. Never parsed as HTML. */
export function textNodes(text: string): Node[] {
  return inlineParts(text).map((part) => {
    if (!part.code) return document.createTextNode(part.text);
    const code = document.createElement('code');
    code.textContent = part.text;
    return code;
  });
}

/** From now on the page speaks `locale`: its keyed text, its attributes and its <html lang>. */
export function useLocale(locale: DemoLocale): void {
  current = TABLES[locale];
  document.documentElement.lang = locale;
  const text = (key: string | undefined) => current[key as keyof DemoText] ?? '';
  for (const element of document.querySelectorAll<HTMLElement>('[data-text]')) {
    element.replaceChildren(...textNodes(text(element.dataset.text)));
  }
  for (const element of document.querySelectorAll<HTMLElement>('[data-text-label]')) {
    element.setAttribute('aria-label', text(element.dataset.textLabel));
  }
  for (const element of document.querySelectorAll<HTMLElement>('[data-text-title]')) {
    element.title = text(element.dataset.textTitle);
  }
}
