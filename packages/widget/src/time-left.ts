import type { VerifyIdentityStrings } from './strings.en.js';

/** The last stretch of a session, shown with urgency. */
export const URGENT_MS = 120_000;

/**
 * "4 minutes" / "45 seconds" in `lang`, plural-correct through Intl.PluralRules, rounded up so that
 * "0 seconds" is never shown while time is left.
 */
export function timeLeftText(ms: number, t: VerifyIdentityStrings, lang: string): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  const [n, unit] = seconds >= 60 ? [Math.ceil(seconds / 60), 'minutes'] : [seconds, 'seconds'];
  const form = t[`${unit}_${new Intl.PluralRules(lang).select(n)}` as keyof VerifyIdentityStrings];
  const text = (form ?? t[`${unit}_other` as 'minutes_other']).replace('{n}', n.toLocaleString(lang));
  return t.timeLeft.replace('{time}', text);
}
