import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { run } from './exec.mjs';

export const PUBLISHED = [
  'protocol',
  'client',
  'core',
  'express',
  'hono',
  'next',
  'otel',
  'widget',
  'sandbox',
];

/** `pnpm pack`s one package (workspace:* and publishConfig applied) into `dir`; returns the tarball. */
export async function pack(root, name, dir) {
  const output = await run('pnpm', ['pack', '--pack-destination', dir], {
    cwd: join(root, 'packages', name),
  });
  const file = output
    .trim()
    .split('\n')
    .find((line) => line.trim().endsWith('.tgz'))
    ?.trim();
  if (!file) throw new Error(`pnpm pack of ${name} printed no tarball:\n${output}`);
  const entries = (await run('tar', ['tzf', file])).trim().split('\n');
  const { size } = await stat(file);
  return { name, file, size, entries };
}

/** What the tarball must not hold: build caches, and TypeScript sources (only .d.ts are fine). */
export function forbiddenEntries(entries) {
  return entries.filter(
    (e) => e.endsWith('.tsbuildinfo') || (/\.(c|m)?ts$/.test(e) && !/\.d\.(c|m)?ts$/.test(e)),
  );
}

/** The package.json inside the tarball: catalog: and workspace: specifiers already replaced by pnpm. */
export async function packedManifest(file) {
  return JSON.parse(await run('tar', ['xzfO', file, 'package/package.json']));
}

/** The packed manifest's exports must not carry the workspace-only `source` condition. */
export function sourceConditions(manifest) {
  return JSON.stringify(manifest.exports ?? {}).includes('"source"')
    ? ['exports has a "source" condition']
    : [];
}

/**
 * What a published package depends on must be a range (`^1.2.3`), never one version (`1.2.3`): an
 * exact version gives the integrator's app a second copy and no patch release (security fixes
 * included) until we publish again. The lockfile pins what we test.
 */
export function exactVersions(manifest) {
  return ['dependencies', 'peerDependencies'].flatMap((field) =>
    Object.entries(manifest[field] ?? {})
      .filter(([, spec]) => /^=?v?\d+\.\d+\.\d+([-+][\w.+-]*)?$/.test(spec.replace(/^npm:.+@/, '')))
      .map(([name, spec]) => `${field} ${name}@${spec} (an exact version; declare a range, e.g. ^)`),
  );
}

export async function publint(root, file) {
  return run(join(root, 'node_modules/.bin/publint'), ['run', file, '--level', 'warning']);
}

// esm-only: the packages are ESM only ("type": "module", no "require" condition), so a CommonJS
// consumer resolving them (node10, node16-cjs) is not a supported setup; every ESM resolution
// (node16-esm, bundler) must be right. No rule is ignored.
export async function attw(root, file) {
  return run(join(root, 'node_modules/.bin/attw'), [
    file,
    '--profile',
    'esm-only',
    '--format',
    'ascii',
    '--no-color',
  ]);
}
