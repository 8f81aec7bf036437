import { randomBytes } from 'node:crypto';
import { VerifyKitError } from '@verify-kit/client';
import { z } from 'zod';

export interface SandboxOptions {
  /** Default 0: a random free port (the CLI defaults to 4010). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default: a random `sk_sandbox_…` key. */
  apiKey?: string;
  /** Public base address used in links; default the listening URL. */
  baseUrl?: string;
  /** Known workflow ids; default ['default']. */
  workflows?: string[];
  /** Time of the automatic review after a document is submitted; default 1500 ms. */
  reviewDelayMs?: number;
  /** Scheme of the deep link; default 'idv'. */
  appScheme?: string;
  /**
   * The deep link's segment order: 'spec' (`<scheme>://app-url/<base>/verification-session/<id>`,
   * default) or 'sdk', as the vendor's mobile SDK documents it
   * (`<scheme>://verification-session/<id>/app-url/<host>`).
   */
  deepLinkStyle?: 'spec' | 'sdk';
  /** Where signed webhooks go (with webhookSecret; both or neither). */
  webhookUrl?: string;
  /** `whsec_<base64>`. */
  webhookSecret?: string;
  /** First retry delay of a failed webhook delivery; default 500 ms, doubled each attempt, with jitter. */
  webhookRetryBaseMs?: number;
  /** Attempts per webhook event, the first included; default 6. */
  webhookMaxAttempts?: number;
  /** Time limit of one webhook attempt; default 5000 ms. */
  webhookTimeoutMs?: number;
  /** When set, /api/v1 answers 429 with Retry-After beyond `requests` per `windowMs` per client address. */
  rateLimit?: { requests: number; windowMs: number };
  /** How long an identification stays readable after its session expired; default 24 h. */
  retentionMs?: number;
  /** Most sessions kept at once; the oldest is evicted beyond it. Default 50,000. */
  maxSessions?: number;
  /** Clock for tests; default Date.now. */
  now?: () => number;
}

export interface Sandbox {
  /** The listening URL, e.g. http://127.0.0.1:4010 (no trailing slash). */
  url: string;
  /** The base address used in links (baseUrl option, or `url`). */
  baseUrl: string;
  apiKey: string;
  port: number;
  /** Moves the sandbox clock forward (session and OTP expiry, retention, rate-limit windows). */
  advanceClock(ms: number): void;
  /** The sandbox clock's time (epoch ms), advanced clock included: for a kit that should share it. */
  now(): number;
  close(): Promise<void>;
}

const headerSafe = /^[\x21-\x7e]+$/;
const WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/]+={0,2}$/;

export const SandboxOptionsSchema = z
  .strictObject({
    port: z.int().min(0).max(65535).optional(),
    host: z.string().min(1).max(255).optional(),
    apiKey: z
      .string()
      .min(1)
      .max(256)
      .regex(headerSafe, 'apiKey must be printable ASCII without spaces')
      .optional(),
    baseUrl: z.url({ protocol: /^https?$/ }).optional(),
    workflows: z.array(z.string().min(1).max(128)).min(1).optional(),
    reviewDelayMs: z.int().min(0).max(3_600_000).optional(),
    appScheme: z
      .string()
      .regex(/^[a-z][a-z0-9+.-]*$/i, 'appScheme must be a URL scheme such as idv')
      .max(64)
      .optional(),
    deepLinkStyle: z.enum(['spec', 'sdk'], { error: "deepLinkStyle must be 'spec' or 'sdk'" }).optional(),
    webhookUrl: z.url({ protocol: /^https?$/ }).optional(),
    webhookSecret: z.string().regex(WEBHOOK_SECRET, 'webhookSecret must be whsec_<base64>').optional(),
    webhookRetryBaseMs: z.int().min(0).max(3_600_000).optional(),
    webhookMaxAttempts: z.int().min(1).max(20).optional(),
    webhookTimeoutMs: z.int().min(1).max(600_000).optional(),
    rateLimit: z
      .strictObject({ requests: z.int().min(1), windowMs: z.int().min(1).max(86_400_000) })
      .optional(),
    retentionMs: z.int().min(0).optional(),
    maxSessions: z.int().min(1).max(10_000_000).optional(),
    now: z.custom<() => number>((v) => typeof v === 'function', 'now must be a function').optional(),
  })
  .superRefine((o, ctx) => {
    if ((o.webhookUrl === undefined) !== (o.webhookSecret === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [o.webhookUrl === undefined ? 'webhookUrl' : 'webhookSecret'],
        message: 'webhookUrl and webhookSecret go together: give both or neither',
      });
    }
  });

/** Options with every default applied. */
export interface ResolvedOptions {
  port: number;
  host: string;
  apiKey: string;
  baseUrl: string | undefined;
  workflows: readonly string[];
  reviewDelayMs: number;
  appScheme: string;
  deepLinkStyle: 'spec' | 'sdk';
  webhook:
    | { url: string; secret: string; retryBaseMs: number; maxAttempts: number; timeoutMs: number }
    | undefined;
  rateLimit: { requests: number; windowMs: number } | undefined;
  retentionMs: number;
  maxSessions: number;
  now: () => number;
}

export function resolveOptions(input: unknown): ResolvedOptions {
  const parsed = SandboxOptionsSchema.safeParse(input ?? {});
  if (!parsed.success) {
    const details = parsed.error.issues.map((i) => ({
      path: i.path.map(String).join('.'),
      message: i.message,
    }));
    const text = details.map((d) => `${d.path || 'options'}: ${d.message}`).join('; ');
    throw new VerifyKitError('INVALID_OPTIONS', `Invalid sandbox options: ${text}`, { details });
  }
  const o = parsed.data;
  return {
    port: o.port ?? 0,
    host: o.host ?? '127.0.0.1',
    apiKey: o.apiKey ?? `sk_sandbox_${randomBytes(18).toString('base64url')}`,
    baseUrl: o.baseUrl?.replace(/\/+$/, ''),
    workflows: [...new Set(o.workflows ?? ['default'])],
    reviewDelayMs: o.reviewDelayMs ?? 1500,
    appScheme: o.appScheme ?? 'idv',
    deepLinkStyle: o.deepLinkStyle ?? 'spec',
    webhook:
      o.webhookUrl && o.webhookSecret
        ? {
            url: o.webhookUrl,
            secret: o.webhookSecret,
            retryBaseMs: o.webhookRetryBaseMs ?? 500,
            maxAttempts: o.webhookMaxAttempts ?? 6,
            timeoutMs: o.webhookTimeoutMs ?? 5000,
          }
        : undefined,
    rateLimit: o.rateLimit,
    retentionMs: o.retentionMs ?? 24 * 60 * 60 * 1000,
    maxSessions: o.maxSessions ?? 50_000,
    now: o.now ?? Date.now,
  };
}
