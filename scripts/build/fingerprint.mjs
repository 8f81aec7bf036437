import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Files outside the projects that every build reads. */
const SHARED_INPUTS = ['tsconfig.json', 'pnpm-lock.yaml'];
/** Folders no build reads: a test edit never makes a rebuild. */
const NOT_BUILD_INPUT = /(^|\/)(test|test-browser)\//;

/**
 * Every file git does not ignore (tracked or new), relative to the root; undefined outside a git
 * checkout, and then nothing is ever skipped.
 */
export function listFiles(root) {
  try {
    const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 64 * 1024 * 1024,
    });
    return [...new Set(out.split('\0').filter((file) => file !== ''))].sort();
  } catch {
    return undefined;
  }
}

function hashFile(hash, root, file) {
  hash.update(`${file}\0`);
  const path = join(root, file);
  // A tracked file deleted from disk is still listed by git.
  hash.update(existsSync(path) && statSync(path).isFile() ? readFileSync(path) : '(missing)');
  hash.update('\0');
}

/**
 * Per project, the hash of what its build reads: its own files (tests aside), the shared
 * configuration, and the same hash of each workspace project it depends on.
 */
export function inputKeys(root, projects, files) {
  const byName = new Map(projects.map((project) => [project.name, project]));
  const keys = new Map();
  const shared = createHash('sha256');
  for (const file of SHARED_INPUTS) hashFile(shared, root, file);
  const sharedKey = shared.digest('hex');
  const keyOf = (project) => {
    if (keys.has(project.name)) return keys.get(project.name);
    const hash = createHash('sha256').update(sharedKey);
    const prefix = `${project.dir}/`;
    for (const file of files) {
      if (file.startsWith(prefix) && !NOT_BUILD_INPUT.test(file.slice(prefix.length))) {
        hashFile(hash, root, file);
      }
    }
    for (const dep of [...project.deps].sort()) {
      if (byName.has(dep)) hash.update(`${dep}=${keyOf(byName.get(dep))}\n`);
    }
    const key = hash.digest('hex');
    keys.set(project.name, key);
    return key;
  };
  for (const project of projects) keyOf(project);
  return keys;
}

/**
 * What a build leaves that git ignores: `dist/`, and the entries of package.json's `files` that are
 * no source (the widget's custom-elements.json).
 */
export function outputPaths(root, project, files) {
  const manifest = JSON.parse(readFileSync(join(root, project.dir, 'package.json'), 'utf8'));
  const listed = (manifest.files ?? []).filter((entry) => !entry.startsWith('!') && !entry.includes('*'));
  const isSource = (entry) => {
    const path = `${project.dir}/${entry}`;
    return files.some((file) => file === path || file.startsWith(`${path}/`));
  };
  return [...new Set(['dist', ...listed.filter((entry) => !isSource(entry))])].sort();
}

/** The hash of the outputs' names and contents as they are on disk now. */
export function outputKey(root, project, paths) {
  const hash = createHash('sha256');
  const walk = (relative) => {
    const path = join(root, project.dir, relative);
    if (!existsSync(path)) {
      hash.update(`${relative}\0(missing)\0`);
      return;
    }
    if (statSync(path).isDirectory()) {
      for (const name of readdirSync(path).sort()) walk(`${relative}/${name}`);
      return;
    }
    hash.update(`${relative}\0`).update(readFileSync(path)).update('\0');
  };
  for (const path of paths) walk(path);
  return hash.digest('hex');
}
