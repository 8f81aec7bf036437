import type { Dispatcher } from 'undici';
import { z } from 'zod';
import { parseOptions } from './parse-options.js';

export interface ClientOptions {
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
  /** An undici Dispatcher (Agent/Pool/MockAgent). Default: a keep-alive Pool of the client's own. */
  dispatcher?: Dispatcher;
  /** Refuse any answer that is not exactly the spec's shape (UUID ids, 8-character code, link shapes). Default false. */
  strict?: boolean;
  /** Allow http:// to a host other than this machine (the key travels in clear text). Default false. */
  allowInsecureHttp?: boolean;
  /** Told once of an answer shape the spec does not describe (accepted unless `strict`). */
  logger?: { warn?(message: string, meta?: Record<string, unknown>): void };
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

const ClientOptionsSchema = z
  .object({
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
    dispatcher: z
      .custom<Dispatcher>(
        (v) =>
          typeof v === 'object' && v !== null && typeof (v as { dispatch?: unknown }).dispatch === 'function',
        'must be an undici Dispatcher',
      )
      .optional(),
    strict: z.boolean().default(false),
    allowInsecureHttp: z.boolean().default(false),
    logger: z
      .custom<NonNullable<ClientOptions['logger']>>(
        (v) => typeof v === 'object' && v !== null,
        'must be an object',
      )
      .optional(),
  })
  .superRefine((options, ctx) => {
    const url = parseBaseUrl(options.baseUrl);
    if (url?.protocol === 'http:' && !LOOPBACK.test(url.hostname) && !options.allowInsecureHttp) {
      ctx.addIssue({
        code: 'custom',
        path: ['baseUrl'],
        message:
          'uses http:// to another machine: the API key would travel in clear text (allowInsecureHttp: true to allow it)',
      });
    }
  })
  .transform((options) => {
    // The refinements above ran: the URL parses.
    const url = parseBaseUrl(options.baseUrl)!;
    return { ...options, baseUrl: url.origin + url.pathname.replace(/\/+$/, ''), origin: url.origin };
  });

/** The options after validation, with every default filled in; `baseUrl` has no trailing slash. */
export type ResolvedClientOptions = z.output<typeof ClientOptionsSchema>;

/** Validates once, at creation. Unknown keys are ignored. Throws INVALID_OPTIONS naming the option. */
export function resolveClientOptions(options: ClientOptions): ResolvedClientOptions {
  return parseOptions(ClientOptionsSchema, options, 'createClient');
}
