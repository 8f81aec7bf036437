import { type DemoKey, type DemoText, en } from './en.js';
import { inlineParts } from './inline.js';

/*
 * Which language the demo's pages speak: the scenario's locale, the one the widget speaks too (and
 * the app, which speaks English for German and Arabic). English is written into the HTML by the
 * build; `useLocale` loads another table (a file of its own, fetched only when used) and swaps it in.
 */

export type { DemoKey, DemoText };
export type DemoLocale = 'en' | 'tr' | 'de' | 'ar';
const TABLES: Record<Exclude<DemoLocale, 'en'>, () => Promise<DemoText>> = {
  tr: () => import('./tr.js').then((m) => m.tr),
  de: () => import('./de.js').then((m) => m.de),
  ar: () => import('./ar.js').then((m) => m.ar),
};
/** The languages written right to left: the page's layout mirrors (the styles use logical properties). */
const RIGHT_TO_LEFT: readonly DemoLocale[] = ['ar'];
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

/**
 * `n` in the form of `key` that Intl.PluralRules chooses for the page's language (`key_other` when the
 * table has no such form), the number formatted by Intl.NumberFormat.
 */
export function plural(key: 'criteria' | 'minutes', n: number): string {
  const lang = document.documentElement.lang || 'en';
  const form = current[`${key}_${new Intl.PluralRules(lang).select(n)}` as keyof DemoText];
  return (form ?? current[`${key}_other`]).replace('{n}', n.toLocaleString(lang));
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

/** From now on the page speaks `locale`: its keyed text, its attributes, its <html lang> and dir. */
export async function useLocale(locale: DemoLocale): Promise<void> {
  current = locale === 'en' ? en : await TABLES[locale]();
  document.documentElement.lang = locale;
  document.documentElement.dir = RIGHT_TO_LEFT.includes(locale) ? 'rtl' : 'ltr';
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
