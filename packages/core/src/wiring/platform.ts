/*
 * Where the kit runs, read from the runtime's environment (Web APIs and optional globals only: no
 * `node:` import). A platform that runs many instances gives each its own memory: what one instance
 * keeps there, another never sees.
 */

/** The platforms recognised by their environment, each running many instances (or isolates). */
export type MultiInstancePlatform =
  | 'Vercel'
  | 'Cloudflare Workers'
  | 'AWS Lambda'
  | 'Netlify'
  | 'Deno Deploy';

interface RuntimeGlobals {
  process?: { env?: Record<string, string | undefined> };
  Deno?: { env?: { get(name: string): string | undefined } };
  navigator?: { userAgent?: string };
  Netlify?: unknown;
}

const runtime = globalThis as RuntimeGlobals;

/** An environment variable, where the runtime has them (Deno without --allow-env: none). */
export function envVar(name: string): string | undefined {
  const fromProcess = runtime.process?.env?.[name];
  if (fromProcess !== undefined) return fromProcess;
  try {
    return runtime.Deno?.env?.get(name);
  } catch {
    return undefined; // Deno without permission to read the environment
  }
}

/** The many-instance platform this code runs on, or undefined (one server, a container, a laptop). */
export function multiInstancePlatform(): MultiInstancePlatform | undefined {
  if (runtime.navigator?.userAgent === 'Cloudflare-Workers') return 'Cloudflare Workers';
  if (envVar('VERCEL') === '1') return 'Vercel';
  if (envVar('NETLIFY') === 'true' || runtime.Netlify !== undefined) return 'Netlify';
  if (envVar('AWS_LAMBDA_FUNCTION_NAME') !== undefined) return 'AWS Lambda';
  if (envVar('DENO_DEPLOYMENT_ID') !== undefined) return 'Deno Deploy';
  return undefined;
}

/** Platforms that set no NODE_ENV: running there is production. */
const ALWAYS_PRODUCTION: readonly MultiInstancePlatform[] = [
  'Cloudflare Workers',
  'AWS Lambda',
  'Deno Deploy',
];

/** NODE_ENV=production, or a platform that is production wherever it runs. */
export function isProduction(): boolean {
  if (envVar('NODE_ENV') === 'production') return true;
  const platform = multiInstancePlatform();
  return platform !== undefined && ALWAYS_PRODUCTION.includes(platform);
}

/** The many-instance platform this code serves production on, or undefined. */
export function productionFleet(): MultiInstancePlatform | undefined {
  return isProduction() ? multiInstancePlatform() : undefined;
}
