import { z } from 'zod';
import type { DecideOptions, DecisionSettings, Freshness } from '../decisions/decisions.js';
import { sameOriginPath } from '../shared/request-guards.js';
import { FreshnessSchema } from '../wiring/option-schemas.js';
import { invalidOptions } from '../wiring/options.js';

/** The gate's rules, on every server. */
export interface GateRules {
  /** Where browser navigations go when not approved (a path of this site), with `?returnTo=<path>`. */
  redirectTo?: string;
  /** 'visit' (the kit's default) or 'every-request' (a read per gated request); default the kit's `freshness`. */
  freshness?: Freshness;
  /**
   * 'every-request': reuse a read younger than this (ms); default 0. 'visit': this gate's bound on
   * a stored decision's age before it is re-read in the background (at most the kit's
   * staleIfErrorMs); default the kit's `maxAgeMs`.
   */
  maxAgeMs?: number;
}

const RULES = {
  redirectTo: z
    .string({ error: 'must be a path of this site, e.g. "/verify"' })
    .refine((value) => sameOriginPath(value) !== undefined, {
      error: 'must be a path of this site starting with a single "/", e.g. "/verify"',
    })
    .optional(),
  maxAgeMs: z
    .int({ error: 'must be an integer number of milliseconds' })
    .min(0, { error: 'must be 0 or more' })
    .max(3_600_000, { error: 'must be at most 3600000 (one hour)' })
    .optional(),
  freshness: FreshnessSchema.optional(),
};

/**
 * A gate's options, checked once where the gate is made: the rules, plus a shell's own (`extra`,
 * e.g. Express's onUnavailable). `decideOptions` is what core.decide takes.
 */
export function parseGateRules<Extra extends z.ZodRawShape = Record<never, never>>(
  input: unknown,
  kit: DecisionSettings,
  extra?: Extra,
) {
  const shape = { ...RULES, ...(extra ?? {}) } as typeof RULES & Extra;
  const schema = z.strictObject(shape).superRefine((options, ctx) => {
    const { freshness, maxAgeMs } = options as { freshness?: Freshness; maxAgeMs?: number };
    const visit = (freshness ?? kit.freshness) === 'visit';
    if (visit && maxAgeMs !== undefined && maxAgeMs > kit.staleIfErrorMs) {
      ctx.addIssue({
        code: 'custom',
        path: ['maxAgeMs'],
        message: `must be at most the kit's staleIfErrorMs (${kit.staleIfErrorMs}) with freshness "visit"`,
      });
    }
  });
  const parsed = schema.safeParse(input ?? {});
  if (!parsed.success) throw invalidOptions('requireApproved', parsed.error, Object.keys(shape));
  const options = parsed.data as z.output<z.ZodObject<Extra>>;
  const { redirectTo, freshness, maxAgeMs } = parsed.data as z.output<z.ZodObject<typeof RULES>>;
  const decideOptions: DecideOptions = {
    ...(freshness === undefined ? {} : { freshness }),
    ...(maxAgeMs === undefined ? {} : { maxAgeMs }),
  };
  return { ...options, redirectTo, decideOptions };
}
