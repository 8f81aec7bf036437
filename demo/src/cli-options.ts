import { parseArgs } from 'node:util';
import { z } from 'zod';
import type { DemoOptions } from './start-demo.js';

export const USAGE = `Usage: pnpm demo [--port 3000] [--host 127.0.0.1] [--metrics]

  --port N     port to serve on (default 3000; 0 picks a free one)
  --host H     address to listen on (default 127.0.0.1)
  --dev        serve the pages from their sources through Vite, nothing built (\`pnpm demo\` passes it)
  --metrics    the kit's OpenTelemetry series at GET /metrics, for Prometheus (@verify-kit/otel)
  --help       show this help

Environment:
  IDV_BASE_URL, IDV_API_KEY   use a real service instead of the embedded sandbox (both or neither)
  IDV_WEBHOOK_SECRET          the service's webhook signing secret (whsec_…), optional
  IDV_WORKFLOW_ID             the workflow to use (default "default")
  SESSION_SECRET              signs the session cookie (default: random at each start)
  REDIS_URL                   keep sessions in Redis (connect-redis) instead of memory
  TRUST_PROXY                 Express "trust proxy" behind an HTTPS reverse proxy, e.g. 1
  REVIEW_DELAY_MS             the embedded sandbox's automatic review delay
  DRAIN_MS                    on SIGTERM, how long GET /ready answers 503 while the demo still
                              serves, before it closes (default 5000)`;

export type ParsedArgs = { help: true } | { help: false; options: DemoOptions };

const PortSchema = z.coerce
  .number({ error: '--port must be a number' })
  .int('--port must be a whole number')
  .min(0, '--port must be 0 to 65535')
  .max(65_535, '--port must be 0 to 65535');

const EnvSchema = z
  .object({
    IDV_BASE_URL: z.url({ protocol: /^https?$/, error: 'IDV_BASE_URL must be an http(s) URL' }).optional(),
    IDV_API_KEY: z.string().min(1, 'IDV_API_KEY must not be empty').optional(),
    IDV_WEBHOOK_SECRET: z.string().min(1).optional(),
    IDV_WORKFLOW_ID: z.string().min(1).optional(),
    SESSION_SECRET: z.string().min(16, 'SESSION_SECRET must be at least 16 characters').optional(),
    REDIS_URL: z.string().min(1).optional(),
    TRUST_PROXY: z.string().min(1).optional(),
    REVIEW_DELAY_MS: z.coerce.number().int().min(0).max(600_000).optional(),
    DRAIN_MS: z.coerce
      .number()
      .int('DRAIN_MS must be a whole number of milliseconds')
      .min(0, 'DRAIN_MS must be 0 to 600000')
      .max(600_000, 'DRAIN_MS must be 0 to 600000')
      .optional(),
  })
  .refine((env) => (env.IDV_BASE_URL === undefined) === (env.IDV_API_KEY === undefined), {
    message: 'set IDV_BASE_URL and IDV_API_KEY together (or neither, for the embedded sandbox)',
  });

/** Flags and environment to options; throws an Error whose message tells the person what to fix. */
export function parseDemoArgs(argv: readonly string[], env: NodeJS.ProcessEnv): ParsedArgs {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      dev: { type: 'boolean' },
      metrics: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) return { help: true };

  const blankToUndefined = Object.fromEntries(
    Object.entries(env).map(([key, value]) => [key, value === '' ? undefined : value]),
  );
  const parsedEnv = EnvSchema.safeParse(blankToUndefined);
  if (!parsedEnv.success) throw new Error(parsedEnv.error.issues.map((issue) => issue.message).join('; '));
  const e = parsedEnv.data;

  const options: DemoOptions = {};
  if (values.port !== undefined) {
    const port = PortSchema.safeParse(values.port);
    if (!port.success) throw new Error(port.error.issues[0]?.message ?? '--port is not valid');
    options.port = port.data;
  }
  if (values.host !== undefined) options.host = values.host;
  if (values.dev) options.dev = true;
  if (values.metrics) options.metrics = true;
  if (e.IDV_BASE_URL !== undefined && e.IDV_API_KEY !== undefined) {
    options.upstream = {
      baseUrl: e.IDV_BASE_URL,
      apiKey: e.IDV_API_KEY,
      ...(e.IDV_WEBHOOK_SECRET === undefined ? {} : { webhookSecret: e.IDV_WEBHOOK_SECRET }),
    };
  }
  if (e.IDV_WORKFLOW_ID !== undefined) options.workflowId = e.IDV_WORKFLOW_ID;
  if (e.SESSION_SECRET !== undefined) options.sessionSecret = e.SESSION_SECRET;
  if (e.REDIS_URL !== undefined) options.redisUrl = e.REDIS_URL;
  if (e.TRUST_PROXY !== undefined) options.trustProxy = e.TRUST_PROXY;
  if (e.REVIEW_DELAY_MS !== undefined) options.reviewDelayMs = e.REVIEW_DELAY_MS;
  if (e.DRAIN_MS !== undefined) options.drainMs = e.DRAIN_MS;
  return { help: false, options };
}
