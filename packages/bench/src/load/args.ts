import { z } from 'zod';

export const USAGE = `pnpm load [flags]   (bounded: stops by itself; everything on 127.0.0.1)

  --users N             simulated users (per wave in soak mode)        default 500
  --concurrency N       users in flight at once                          default 50
  --review-delay-ms MS  the sandbox's automatic review time              default 500
  --soak-seconds S      run waves for S seconds, then expire everything
                        and show memory returning toward its baseline    default 0 (one run)
  --no-webhooks         no signed webhooks from the sandbox to the kit (long-polls re-read)
  --max-seconds S       hard limit of the whole run                      default 900
  --publish             also write the committed packages/bench/load-results.json
`;

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

export const LoadArgsSchema = z.strictObject({
  users: int(1, 100_000).default(500),
  concurrency: int(1, 5_000).default(50),
  reviewDelayMs: int(0, 60_000).default(500),
  soakSeconds: int(0, 3_600).default(0),
  webhooks: z.boolean().default(true),
  maxSeconds: int(10, 7_200).default(900),
  publish: z.boolean().default(false),
  help: z.boolean().default(false),
});
export type LoadArgs = z.infer<typeof LoadArgsSchema>;

const camel = (flag: string) => flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
const BOOLEAN_FLAGS = new Set(['help', 'publish', 'webhooks']);

/** `--name value`, `--name=value`, `--flag`, `--no-flag`; zod checks names and values. */
export function parseArgs(argv: readonly string[]): LoadArgs {
  const raw: Record<string, unknown> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') continue;
    if (!arg.startsWith('--')) throw new Error(`unexpected argument ${JSON.stringify(arg)}`);
    const [flag = '', inline] = arg.slice(2).split(/=(.*)/s, 2);
    if (flag.startsWith('no-') && BOOLEAN_FLAGS.has(flag.slice(3))) {
      raw[camel(flag.slice(3))] = false;
    } else if (BOOLEAN_FLAGS.has(flag)) {
      if (inline !== undefined && inline !== 'true' && inline !== 'false') {
        throw new Error(`--${flag} takes no value`);
      }
      raw[camel(flag)] = inline !== 'false';
    } else if (inline !== undefined) {
      raw[camel(flag)] = inline;
    } else {
      const value = argv[i + 1];
      if (value === undefined || value.startsWith('--')) throw new Error(`--${flag} needs a value`);
      raw[camel(flag)] = value;
      i++;
    }
  }
  const parsed = LoadArgsSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown flag ${issue.keys.map((k) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`).join(', ')}`
        : `--${String(issue.path[0] ?? '').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}: ${issue.message}`,
    );
    throw new Error(problems.join('; '));
  }
  return parsed.data;
}
