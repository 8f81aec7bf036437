import { parseArgs } from 'node:util';
import { z } from 'zod';

export const USAGE = `pnpm load [flags]   (bounded: stops by itself; everything on 127.0.0.1)

  --users N             simulated users (per wave in soak mode)        default 500
  --concurrency N       users in flight at once                          default 50
  --review-delay-ms MS  the sandbox's automatic review time              default 500
  --soak-seconds S      run waves for S seconds, then expire everything
                        and show memory returning toward its baseline    default 0 (one run)
  --no-webhooks         no signed webhooks from the sandbox to the kit (long-polls re-read)
  --flood               instead: verified people start visits while two addresses poll the
                        status of 60 verifications each every 100 ms, against a service
                        limited to --service-limit calls a second (goal: 0 refused)
  --flood-seconds S     how long the flood lasts                         default 10
  --service-limit N     the sandbox's calls a second on the key          default 40
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
  flood: z.boolean().default(false),
  floodSeconds: int(1, 600).default(10),
  serviceLimit: int(1, 100_000).default(40),
  maxSeconds: int(10, 7_200).default(900),
  publish: z.boolean().default(false),
  help: z.boolean().default(false),
});
export type LoadArgs = z.infer<typeof LoadArgsSchema>;

const kebab = (key: string) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/**
 * `--name value`, `--name=value`, `--flag`, `--no-flag` (the `booleans`), for the keys of `schema`
 * spelled in kebab-case; zod checks the values. Shared by `pnpm load` and `pnpm chaos`.
 */
export function parseFlags<S extends z.ZodObject>(
  argv: readonly string[],
  schema: S,
  booleans: readonly string[],
): z.infer<S> {
  const options = Object.fromEntries(
    Object.keys(schema.shape).map((key) => [
      kebab(key),
      { type: booleans.includes(key) ? ('boolean' as const) : ('string' as const) },
    ]),
  );
  const { values } = parseArgs({ args: argv.filter((a) => a !== '--'), options, allowNegative: true });
  const raw = Object.fromEntries(
    Object.entries(values).map(([flag, value]) => [
      flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()),
      value,
    ]),
  );
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw new Error(
    parsed.error.issues
      .map((issue) => `--${kebab(String(issue.path[0] ?? ''))}: ${issue.message}`)
      .join('; '),
  );
}

export const parseLoadArgs = (argv: readonly string[]) =>
  parseFlags(argv, LoadArgsSchema, ['webhooks', 'flood', 'publish', 'help']);

/**
 * The hard limit of a bounded run (`pnpm load`, `pnpm chaos`): whatever happens, the process exits
 * `graceSeconds` after `maxSeconds` (its children with it). The run's deadline, and how to lift it.
 */
export function hardLimit(command: string, maxSeconds: number, graceSeconds: number) {
  const timer = setTimeout(
    () => {
      console.error(`${command}: hard limit of ${maxSeconds} s reached, stopping`);
      process.exit(1);
    },
    (maxSeconds + graceSeconds) * 1000,
  );
  return { deadline: Date.now() + maxSeconds * 1000, lift: () => clearTimeout(timer) };
}
