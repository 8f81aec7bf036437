import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The workspace's projects (pnpm-workspace.yaml's `packages:` globs, `dir/*` or `dir`), each with
 * its build script (if any) and the workspace projects it depends on.
 */
export function readProjects(root) {
  const workspace = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const section = workspace.match(/^packages:\n((?:[ \t]+-.*\n)+)/m)?.[1] ?? '';
  const dirs = [];
  for (const [, pattern] of section.matchAll(/-\s+['"]?([^'"\n]+?)['"]?\s*$/gm)) {
    if (pattern.endsWith('/*')) {
      const parent = pattern.slice(0, -2);
      for (const name of readdirSync(join(root, parent)).sort()) dirs.push(`${parent}/${name}`);
    } else dirs.push(pattern);
  }
  const projects = [];
  for (const dir of dirs) {
    const file = join(root, dir, 'package.json');
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, 'utf8'));
    const specs = { ...manifest.dependencies, ...manifest.devDependencies };
    const deps = Object.keys(specs).filter((name) => String(specs[name]).startsWith('workspace:'));
    projects.push({ name: manifest.name, dir, build: manifest.scripts?.build, deps });
  }
  return projects;
}

/**
 * The projects to build for `targets` (every project when empty): the targets and everything they
 * depend on, dependencies first, only those with a build script, each with `after`: the projects of
 * the list it depends on, directly or through others. Throws on an unknown name or a cycle.
 */
export function buildOrder(projects, targets = []) {
  const byName = new Map(projects.map((project) => [project.name, project]));
  for (const name of targets) {
    if (!byName.has(name)) {
      const known = projects.map((project) => project.name).join(', ');
      throw new Error(`no workspace project ${name} (there are: ${known})`);
    }
  }
  const ordered = [];
  const state = new Map();
  const visit = (name, path) => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') throw new Error(`dependency cycle: ${[...path, name].join(' -> ')}`);
    state.set(name, 'visiting');
    const project = byName.get(name);
    for (const dep of project.deps) if (byName.has(dep)) visit(dep, [...path, name]);
    state.set(name, 'done');
    ordered.push(project);
  };
  for (const name of targets.length > 0 ? targets : [...byName.keys()]) visit(name, []);
  const below = new Map();
  const closure = (project) => {
    if (!below.has(project.name)) {
      const names = new Set();
      for (const dep of project.deps.filter((name) => byName.has(name))) {
        names.add(dep);
        for (const name of closure(byName.get(dep))) names.add(name);
      }
      below.set(project.name, names);
    }
    return below.get(project.name);
  };
  const built = ordered.filter((project) => project.build !== undefined);
  const builtNames = new Set(built.map((project) => project.name));
  return built.map((project) => ({
    ...project,
    after: [...closure(project)].filter((name) => builtNames.has(name)),
  }));
}
