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
  const form = new Intl.PluralRules(lang).select(n) === 'one' ? 'one' : 'other';
  const text = t[`${unit}_${form}` as keyof VerifyIdentityStrings].replace('{n}', String(n));
  return t.timeLeft.replace('{time}', text);
}
