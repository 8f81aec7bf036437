import { randomBytes } from 'node:crypto';
import { parseOptions, WebhookSecretSchema } from '@verify-kit/client';
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
const randomApiKey = () => `sk_sandbox_${randomBytes(18).toString('base64url')}`;

export const SandboxOptionsSchema = z
  .strictObject({
    port: z.int().min(0).max(65535).default(0),
    host: z.string().min(1).max(255).default('127.0.0.1'),
    apiKey: z
      .string()
      .min(1)
      .max(256)
      .regex(headerSafe, 'must be printable ASCII without spaces')
      .default(randomApiKey),
    baseUrl: z
      .url({ protocol: /^https?$/ })
      .transform((url) => url.replace(/\/+$/, ''))
      .optional(),
    workflows: z
      .array(z.string().min(1).max(128))
      .min(1)
      .default(['default'])
      .transform((ids): readonly string[] => [...new Set(ids)]),
    reviewDelayMs: z.int().min(0).max(3_600_000).default(1500),
    appScheme: z
      .string()
      .regex(/^[a-z][a-z0-9+.-]*$/i, 'must be a URL scheme such as idv')
      .max(64)
      .default('idv'),
    deepLinkStyle: z.enum(['spec', 'sdk'], { error: "must be 'spec' or 'sdk'" }).default('spec'),
    webhookUrl: z.url({ protocol: /^https?$/ }).optional(),
    webhookSecret: WebhookSecretSchema.optional(),
    webhookRetryBaseMs: z.int().min(0).max(3_600_000).default(500),
    webhookMaxAttempts: z.int().min(1).max(20).default(6),
    webhookTimeoutMs: z.int().min(1).max(600_000).default(5000),
    rateLimit: z
      .strictObject({ requests: z.int().min(1), windowMs: z.int().min(1).max(86_400_000) })
      .optional(),
    retentionMs: z
      .int()
      .min(0)
      .default(24 * 60 * 60 * 1000),
    maxSessions: z.int().min(1).max(10_000_000).default(50_000),
    now: z.custom<() => number>((v) => typeof v === 'function', 'must be a function').default(() => Date.now),
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

const ResolvedOptionsSchema = SandboxOptionsSchema.transform(
  ({ webhookUrl, webhookSecret, webhookRetryBaseMs, webhookMaxAttempts, webhookTimeoutMs, ...rest }) => ({
    ...rest,
    webhook:
      webhookUrl !== undefined && webhookSecret !== undefined
        ? {
            url: webhookUrl,
            secret: webhookSecret,
            retryBaseMs: webhookRetryBaseMs,
            maxAttempts: webhookMaxAttempts,
            timeoutMs: webhookTimeoutMs,
          }
        : undefined,
  }),
);

/** Options with every default applied. */
export type ResolvedOptions = z.output<typeof ResolvedOptionsSchema>;

export function resolveOptions(input: unknown): ResolvedOptions {
  return parseOptions(ResolvedOptionsSchema, input ?? {}, 'startSandbox');
}
