import { z } from 'zod';
import { parseOptions } from './parse-options.js';
import type { OnAttempt } from './upstream-attempt.js';

/** The options of both clients (createClient adds `dispatcher`, createFetchClient `fetch`). */
export interface BaseClientOptions {
  /** The service's base address, e.g. https://idv.example.com (no /api/v1). May carry a path prefix. */
  baseUrl: string;
  apiKey: string;
  /** Per attempt, connection + headers + body. Default 10 000 ms. */
  timeoutMs?: number;
  /** Extra attempts of a safe call (getIdentification, verify). Default 2. Session creation is never retried blindly. */
  retries?: number;
  /** Backoff base and cap in ms (full jitter). Defaults 100 and 2 000. */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** Refuse any answer that is not exactly the spec's shape (UUID ids, 8-character code, link shapes). Default false. */
  strict?: boolean;
  /** Allow http:// to a host other than this machine (the key travels in clear text). Default false. */
  allowInsecureHttp?: boolean;
  /** Told once of an answer shape the spec does not describe (accepted unless `strict`). */
  logger?: { warn?(message: string, meta?: Record<string, unknown>): void };
  /**
   * Told of each HTTP exchange with the service, retries included (operation, path template,
   * status or error code, duration; never the key, a body or an id): for metrics and traces.
   */
  onAttempt?: OnAttempt;
}

function parseBaseUrl(value: string): URL | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

// Header-safe: printable ASCII, no surrounding blanks. Messages never show the value.
const API_KEY = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

const BASE_SHAPE = {
  baseUrl: z
    .string()
    .refine((v) => parseBaseUrl(v) !== undefined, 'must be an absolute http(s) URL')
    .refine((v) => {
      const url = parseBaseUrl(v);
      return (
        url === undefined ||
        (url.search === '' && url.hash === '' && url.username === '' && url.password === '')
      );
    }, 'must not carry a query, a fragment or credentials'),
  apiKey: z
    .string('must be a string')
    .min(1, { error: 'must not be empty', abort: true })
    .regex(API_KEY, 'must be printable ASCII'),
  timeoutMs: z.int().min(1).max(600_000).default(10_000),
  retries: z.int().min(0).max(10).default(2),
  retryBaseMs: z.int().min(0).max(60_000).default(100),
  retryMaxMs: z.int().min(0).max(600_000).default(2_000),
  strict: z.boolean().default(false),
  allowInsecureHttp: z.boolean().default(false),
  logger: z
    .custom<NonNullable<BaseClientOptions['logger']>>(
      (v) => typeof v === 'object' && v !== null,
      'must be an object',
    )
    .optional(),
  onAttempt: z.custom<OnAttempt>((v) => typeof v === 'function', 'must be a function').optional(),
};

/** The options after validation, with every default filled in; `baseUrl` has no trailing slash. */
export type ResolvedClientOptions = z.output<z.ZodObject<typeof BASE_SHAPE>> & { origin: string };

type UrlOptions = Pick<ResolvedClientOptions, 'baseUrl' | 'allowInsecureHttp'>;

function refuseClearTextKey(options: UrlOptions, ctx: z.RefinementCtx): void {
  const url = parseBaseUrl(options.baseUrl);
  if (url?.protocol === 'http:' && !LOOPBACK.test(url.hostname) && !options.allowInsecureHttp) {
    ctx.addIssue({
      code: 'custom',
      path: ['baseUrl'],
      message:
        'uses http:// to another machine: the API key would travel in clear text (allowInsecureHttp: true to allow it)',
    });
  }
}

function withOrigin<T extends UrlOptions>(options: T): T & { origin: string } {
  // The refinements ran: the URL parses.
  const url = parseBaseUrl(options.baseUrl)!;
  return { ...options, baseUrl: url.origin + url.pathname.replace(/\/+$/, ''), origin: url.origin };
}

/**
 * Validates once, at creation: the shared options plus the transport's own (`extra`, e.g. a
 * dispatcher). Unknown keys are ignored. Throws INVALID_OPTIONS naming `factory` and the option.
 */
export function resolveClientOptions<E extends z.ZodRawShape>(
  options: unknown,
  extra: E,
  factory: string,
): ResolvedClientOptions & z.output<z.ZodObject<E>> {
  const schema = z
    .object({ ...BASE_SHAPE, ...extra })
    .superRefine((parsed, ctx) => refuseClearTextKey(parsed as UrlOptions, ctx))
    .transform((parsed) => withOrigin(parsed as UrlOptions));
  return parseOptions(schema, options, factory) as ResolvedClientOptions & z.output<z.ZodObject<E>>;
}
