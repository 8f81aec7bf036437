// The workspace packages the demo is built from: the demo's `workspace:` dependencies, followed
// recursively, each with its directory and its own workspace dependencies, in build order.
import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';

function readManifest(dir) {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
}

/** Names of the `workspace:` dependencies (dev ones included: pnpm -r orders builds by them too). */
function workspaceDependencies(manifest) {
  const all = { ...manifest.dependencies, ...manifest.devDependencies };
  return Object.keys(all)
    .filter((name) => String(all[name]).startsWith('workspace:'))
    .sort();
}

/**
 * Every workspace package reachable from `rootDir`'s package.json, dependencies before dependents.
 * Each entry: { name, dir, deps, manifest }. The root package itself comes last.
 */
export function buildGraph(rootDir) {
  const byName = new Map();
  const order = [];
  const visiting = new Set();

  const visit = (dir) => {
    const manifest = readManifest(dir);
    const name = manifest.name;
    if (byName.has(name)) return name;
    if (visiting.has(name)) throw new Error(`workspace dependency cycle through ${name}`);
    visiting.add(name);
    const deps = workspaceDependencies(manifest).map((dep) =>
      // pnpm links each workspace dependency into node_modules: its real path is the package.
      visit(realpathSync(join(dir, 'node_modules', ...dep.split('/')))),
    );
    visiting.delete(name);
    const node = { name, dir, deps, manifest };
    byName.set(name, node);
    order.push(node);
    return name;
  };

  visit(rootDir);
  return order;
}
