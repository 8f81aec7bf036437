import { parseArgs } from 'node:util';
import { z } from 'zod';
import type { SandboxOptions } from './options.js';

export const USAGE = `Usage: npx verify-kit-sandbox [options]
       (in the verify-kit repository: pnpm sandbox [options])

  --port N                  port to listen on (default 4010; 0 = random)
  --host H                  address to listen on (default 127.0.0.1)
  --api-key K               the x-api-key to accept (default: a random sk_sandbox_… key, printed)
  --base-url URL            public base address used in links (default: the listening URL)
  --workflows a,b           known workflow ids (default: default)
  --review-delay-ms MS      time of the automatic review (default 1500)
  --app-scheme S            deep link scheme (default idv)
  --deep-link-style spec|sdk the deep link's segment order: the spec's (default) or the vendor SDK's
  --webhook-url URL         where to send signed webhooks (with --webhook-secret)
  --webhook-secret whsec_…  Standard Webhooks secret (with --webhook-url)
  --rate-limit N            answer 429 beyond N /api/v1 requests per window and client
  --rate-limit-window-ms MS the rate-limit window (default 1000)
  --retention-ms MS         how long identifications stay readable after expiry (default 86400000)
  -h, --help                show this help
`;

export const CLI_DEFAULT_PORT = 4010;

/** A flag the CLI cannot use; the CLI prints the message and the usage and exits with 2. */
export class CliUsageError extends Error {
  override name = 'CliUsageError';
}

const int = (name: string) =>
  z.string().regex(/^\d+$/, `--${name} takes a whole number`).transform(Number).optional();

const FlagsSchema = z.strictObject({
  port: int('port'),
  host: z.string().optional(),
  'api-key': z.string().optional(),
  'base-url': z.string().optional(),
  workflows: z.string().optional(),
  'review-delay-ms': int('review-delay-ms'),
  'app-scheme': z.string().optional(),
  'deep-link-style': z.enum(['spec', 'sdk'], { error: '--deep-link-style takes spec or sdk' }).optional(),
  'webhook-url': z.string().optional(),
  'webhook-secret': z.string().optional(),
  'rate-limit': int('rate-limit'),
  'rate-limit-window-ms': int('rate-limit-window-ms'),
  'retention-ms': int('retention-ms'),
  help: z.boolean().optional(),
});

const str = { type: 'string' } as const;

/**
 * Flags to SandboxOptions. The values' own rules (a URL, a whsec_ secret…) are checked by
 * startSandbox's option schema, whose error the CLI reports the same way.
 */
export function parseCliArgs(
  argv: readonly string[],
): { help: true } | { help: false; options: SandboxOptions } {
  let values: Record<string, unknown>;
  try {
    ({ values } = parseArgs({
      args: argv.filter((a) => a !== '--'),
      strict: true,
      allowPositionals: false,
      options: {
        port: str,
        host: str,
        'api-key': str,
        'base-url': str,
        workflows: str,
        'review-delay-ms': str,
        'app-scheme': str,
        'deep-link-style': str,
        'webhook-url': str,
        'webhook-secret': str,
        'rate-limit': str,
        'rate-limit-window-ms': str,
        'retention-ms': str,
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    throw new CliUsageError(err instanceof Error ? err.message : String(err));
  }
  const parsed = FlagsSchema.safeParse(values);
  if (!parsed.success) throw new CliUsageError(parsed.error.issues.map((i) => i.message).join('; '));
  const f = parsed.data;
  if (f.help) return { help: true };
  if (f['rate-limit-window-ms'] !== undefined && f['rate-limit'] === undefined) {
    throw new CliUsageError('--rate-limit-window-ms needs --rate-limit');
  }

  const options: SandboxOptions = { port: f.port ?? CLI_DEFAULT_PORT };
  if (f.host !== undefined) options.host = f.host;
  if (f['api-key'] !== undefined) options.apiKey = f['api-key'];
  if (f['base-url'] !== undefined) options.baseUrl = f['base-url'];
  if (f.workflows !== undefined) {
    options.workflows = f.workflows
      .split(',')
      .map((w) => w.trim())
      .filter(Boolean);
  }
  if (f['review-delay-ms'] !== undefined) options.reviewDelayMs = f['review-delay-ms'];
  if (f['app-scheme'] !== undefined) options.appScheme = f['app-scheme'];
  if (f['deep-link-style'] !== undefined) options.deepLinkStyle = f['deep-link-style'];
  if (f['webhook-url'] !== undefined) options.webhookUrl = f['webhook-url'];
  if (f['webhook-secret'] !== undefined) options.webhookSecret = f['webhook-secret'];
  if (f['rate-limit'] !== undefined) {
    options.rateLimit = { requests: f['rate-limit'], windowMs: f['rate-limit-window-ms'] ?? 1000 };
  }
  if (f['retention-ms'] !== undefined) options.retentionMs = f['retention-ms'];
  return { help: false, options };
}
