/** The integrator's logger (`console` works); each level optional. */
export interface Logger {
  debug?(message: string, meta?: Record<string, unknown>): void;
  info?(message: string, meta?: Record<string, unknown>): void;
  warn?(message: string, meta?: Record<string, unknown>): void;
  error?(message: string, meta?: Record<string, unknown>): void;
}

export interface Log {
  debug(message: string, meta?: Record<string, unknown>): void;
  info(message: string, meta?: Record<string, unknown>): void;
  warn(message: string, meta?: Record<string, unknown>): void;
  error(message: string, meta?: Record<string, unknown>): void;
}

const defaultLogger: Logger = {
  warn: (message, meta) => console.warn(`[verify-kit] ${message}`, meta ?? ''),
};

/**
 * The kit's logging: the integrator's logger, or misconfiguration warnings only. A second guard
 * replaces the secrets (the API key, a Redis password) wherever they would appear; a throwing logger
 * never breaks a request.
 */
export function createLog(logger: Logger | undefined, secrets: string | readonly string[]): Log {
  const target = logger ?? defaultLogger;
  const hidden = (typeof secrets === 'string' ? [secrets] : secrets).filter((secret) => secret.length > 0);
  const scrub = (value: unknown): unknown => {
    if (typeof value === 'string') {
      return hidden.reduce((text, secret) => text.split(secret).join('[redacted]'), value);
    }
    if (Array.isArray(value)) return value.map(scrub);
    if (typeof value === 'object' && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrub(v)]));
    }
    return value;
  };
  const emit =
    (level: keyof Logger) =>
    (message: string, meta?: Record<string, unknown>): void => {
      const write = target[level];
      if (write === undefined) return;
      try {
        const text = scrub(message) as string;
        if (meta === undefined) write.call(target, text);
        else write.call(target, text, scrub(meta) as Record<string, unknown>);
      } catch {
        // Logging must never fail a request.
      }
    };
  return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error') };
}
