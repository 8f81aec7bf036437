const REDACTED = '[redacted]';

/**
 * A deep copy of `value` with every occurrence of `secret` in strings (and object keys) replaced:
 * the upstream could echo our API key in an error body, and that body ends up in a VerifyKitError.
 */
export function redact<T>(value: T, secret: string): T {
  return redactValue(value, secret, 0) as T;
}

function redactValue(value: unknown, secret: string, depth: number): unknown {
  if (typeof value === 'string') return value.split(secret).join(REDACTED);
  if (value === null || typeof value !== 'object') return value;
  if (depth > 64) return REDACTED;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secret, depth + 1));
  // fromEntries defines own properties, so a "__proto__" key stays a plain key.
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key.split(secret).join(REDACTED),
      redactValue(item, secret, depth + 1),
    ]),
  );
}
