import { LOCALES, type Locale } from '@verify-kit/protocol';
import { en, type VerifyIdentityStrings } from './strings.en.js';

// Only `en` ships in the element's module. Other tables are imported on first use (the standalone
// build puts each in its own file next to it, a bundler in a chunk of its own), so a page in English
// downloads no Turkish. Nothing else may import them statically (the main entry does not re-export
// them: each is its own entry, `@verify-kit/widget/locales/<locale>`), or a bundler cannot split
// them off. A new language: its file strings.<locale>.ts, a line here, the locale in the protocol's
// LOCALES (README.md, "A new language").
const imports: Record<Exclude<Locale, 'en'>, () => Promise<VerifyIdentityStrings>> = {
  tr: () => import('./strings.tr.js').then((m) => m.tr),
  de: () => import('./strings.de.js').then((m) => m.de),
  ar: () => import('./strings.ar.js').then((m) => m.ar),
};
const loaded: Partial<Record<Locale, VerifyIdentityStrings>> = { en };

/** The locale of a language tag (`tr-TR` → `tr`); `en` for an unknown or empty one. */
export function localeOf(tag: string): Locale {
  const lang = tag.slice(0, 2).toLowerCase() as Locale;
  return LOCALES.includes(lang) ? lang : 'en';
}

/** Whether the table of `locale` is loaded. */
export const hasStrings = (locale: Locale): boolean => locale in loaded;

/** The table of `locale` if it is loaded, else English. */
export const stringsOf = (locale: Locale): VerifyIdentityStrings => loaded[locale] ?? en;

/** The language `stringsOf(locale)` is written in: English until, or unless, its file loaded. */
export const shownLocale = (locale: Locale): Locale => (stringsOf(locale) === en ? 'en' : locale);

/**
 * Loads the table of a locale other than `en` (the browser fetches a module once however often it
 * is imported); English if its file cannot be loaded, so the element is never blank.
 */
export async function loadStrings(locale: Locale): Promise<void> {
  if (locale !== 'en') loaded[locale] = await imports[locale]().catch(() => en);
}
