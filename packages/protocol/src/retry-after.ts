/** The longest Retry-After honoured, in ms; a longer one is read as this. */
export const MAX_RETRY_AFTER_MS = 300_000;

/**
 * `Retry-After` (RFC 9110) in ms from `now`: delta-seconds (digits only) or an HTTP date; undefined
 * when absent or unreadable ("1.5", "-1", "0x10" and "1e3" are not delta-seconds). Capped at
 * MAX_RETRY_AFTER_MS; a date in the past is 0.
 */
export function parseRetryAfter(
  value: string | readonly string[] | null | undefined,
  now = Date.now(),
): number | undefined {
  const text = (typeof value === 'string' ? value : value?.[0])?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Math.min(Number(text) * 1000, MAX_RETRY_AFTER_MS);
  // HTTP dates start with a day name; Date.parse alone would take "-1" or "1.5" for dates.
  if (!/^[A-Za-z]{3}/.test(text)) return undefined;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.min(Math.max(0, date - now), MAX_RETRY_AFTER_MS);
}
