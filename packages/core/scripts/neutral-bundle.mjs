// The neutral-bundle check (issue 31): bundles an entry (by default each of packages/core's neutral
// entries, the main one and ./sql, through the `source` condition, so no build is needed) with
// esbuild for `--platform=neutral`, the platform of no runtime in particular, and fails when anything
// in its import graph is a Node built-in (`node:*`, or a bare `fs`, `crypto`, `buffer`, …) or a
// package core must never pull in (undici, node-redis, rate-limiter-flexible). Every import is
// followed, not only the entry's, so a dependency that reaches for one is caught too. Usage:
// `node scripts/neutral-bundle.mjs [entry]`; exit 0 clean, 1 not.
import { builtinModules } from 'node:module';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = fileURLToPath(new URL('..', import.meta.url));
const root = resolve(here, '../..');

/** Packages that tie code to Node or to a server: never in core's graph. */
const FORBIDDEN_PACKAGES = ['undici', 'redis', '@redis/', 'ioredis', 'rate-limiter-flexible'];
const BUILTINS = new Set(builtinModules.filter((name) => !name.startsWith('_')));

/** Why `path` may not be imported, or undefined when it may. */
export function forbidden(path) {
  if (path.startsWith('node:')) return 'a Node built-in';
  if (BUILTINS.has(path) || BUILTINS.has(path.split('/')[0])) return 'a Node built-in';
  const hit = FORBIDDEN_PACKAGES.find((name) =>
    name.endsWith('/') ? path.startsWith(name) : path === name || path.startsWith(`${name}/`),
  );
  return hit === undefined ? undefined : `${hit.replace(/\/$/, '')}, which core must not import`;
}

/** Bundles `entry`; resolves `{ bytes, inputs, offences: [{ path, importer, why }] }`. */
export async function checkNeutralBundle(entry) {
  const offences = [];
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    platform: 'neutral',
    format: 'esm',
    conditions: ['source'],
    mainFields: ['module', 'main'],
    metafile: true,
    logLevel: 'silent',
    plugins: [
      {
        name: 'forbidden-imports',
        setup(plugin) {
          plugin.onResolve({ filter: /.*/ }, ({ path, importer }) => {
            const why = forbidden(path);
            if (why === undefined) return undefined;
            offences.push({ path, importer: relative(root, importer), why });
            return { path, external: true };
          });
        },
      },
    ],
  });
  const bytes = result.outputFiles.reduce((sum, file) => sum + file.contents.length, 0);
  return { bytes, inputs: Object.keys(result.metafile.inputs).length, offences };
}

/** Core's entries that must run on any runtime: the engine, and the SQL store (./sql). */
export const NEUTRAL_ENTRIES = ['src/index.ts', 'src/sql.ts'];

async function check(entry) {
  const name = relative(root, entry);
  const { bytes, inputs, offences } = await checkNeutralBundle(entry);
  if (offences.length === 0) {
    process.stdout.write(
      `neutral bundle: ${name}: ${inputs} modules, ${bytes} bytes, no Node built-in, undici, redis or rate-limiter-flexible\n`,
    );
    return;
  }
  process.stderr.write(`neutral bundle: ${name} imports what a runtime-neutral package must not:\n`);
  for (const { path, importer, why } of offences) {
    process.stderr.write(`  ${path} (${why}), imported by ${importer}\n`);
  }
  process.exitCode = 1;
}

async function main() {
  const given = process.argv[2];
  const entries =
    given === undefined ? NEUTRAL_ENTRIES.map((entry) => resolve(here, entry)) : [resolve(given)];
  for (const entry of entries) await check(entry);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    process.stderr.write(`neutral bundle: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
