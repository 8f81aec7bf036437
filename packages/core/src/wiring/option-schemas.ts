import { z } from 'zod';

// The small zod pieces every options schema of the kit is made of (createVerifyKit, sendLink, the gate).

export const isFunction = (value: unknown): boolean => typeof value === 'function';
export const fn = <T>(message: string) => z.custom<T>(isFunction, { error: message });

export const int = (unit: '' | 'seconds' | 'milliseconds', min: number, max: number) =>
  z
    .int({ error: `must be an integer${unit ? ` number of ${unit}` : ''}` })
    .min(min, { error: min === 0 ? 'must be 0 or more' : `must be at least ${min}${unit ? ` ${unit}` : ''}` })
    .max(max, { error: `must be at most ${max}${unit ? ` ${unit}` : ''}` });

export const objectWith = <T>(methods: readonly string[], error: string) =>
  z.custom<T>(
    (value) =>
      typeof value === 'object' &&
      value !== null &&
      methods.every((name) => isFunction((value as Record<string, unknown>)[name])),
    { error },
  );

export const REDIS_CLIENT_ERROR =
  'must be a connected node-redis v6 client: createClient({ url }) from "redis"';

/** `freshness`, kit-wide and per gate. */
export const FreshnessSchema = z.enum(['visit', 'every-request'], {
  error: 'must be "visit" (a read per visit, the stored decision inside it) or "every-request"',
});
