// Whether a package's build output is current: a content hash of everything its build reads
// (its files, the shared config, the lockfile, its dependencies' hashes) and a fingerprint of what
// the build wrote (a content hash of its output directory). A stamp records
// both after a successful build; the build is skipped only while both still match.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** Outputs, tests and documents: never an input of a build. */
const NOT_INPUTS = new Set([
  'node_modules',
  'dist',
  'test',
  'test-browser',
  'test-results',
  'playwright-report',
  'artifacts',
  'custom-elements.json',
]);

function filesUnder(dir, skip) {
  const files = [];
  const walk = (current) => {
    let entries;
    try {
      entries = readdirSync(current, { withFileTypes: true });
    } catch (error) {
      if (error.code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries) {
      if (skip(entry.name)) continue;
      const path = join(current, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) files.push(path);
    }
  };
  walk(dir);
  return files.sort();
}

const posix = (path) => path.split(sep).join('/');

/** A file another process removed since it was listed (e.g. vite's temporary config) is skipped. */
function readIfPresent(file) {
  try {
    return readFileSync(file);
  } catch (error) {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * The hash of what a package's build reads: every file of the package except outputs, tests,
 * dot-files and Markdown, plus `sharedFiles` (root tsconfig, lockfile) and `extra` strings (the
 * dependencies' hashes). Any change of content, a new file or a removed one changes it.
 */
export function inputsHash(packageDir, sharedFiles, extra) {
  const hash = createHash('sha256');
  const skip = (name) => name.startsWith('.') || name.endsWith('.md') || NOT_INPUTS.has(name);
  for (const file of filesUnder(packageDir, skip)) {
    const content = readIfPresent(file);
    if (content === undefined) continue;
    hash.update(`${posix(relative(packageDir, file))}\0`);
    hash.update(content);
    hash.update('\0');
  }
  for (const file of sharedFiles) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  for (const value of extra) hash.update(`${value}\0`);
  return hash.digest('hex');
}

/**
 * What the output directory holds now: the path and content of each file (`ignore` excluded).
 * A deletion, an edit or a rebuild from other sources changes it; a rebuild from the same
 * sources (e.g. a root `pnpm build`) does not.
 */
export function outputsFingerprint(outputDir, ignore = () => false) {
  const hash = createHash('sha256');
  const files = filesUnder(outputDir, () => false).filter((file) => !ignore(file));
  let count = 0;
  for (const file of files) {
    const content = readIfPresent(file);
    if (content === undefined) continue;
    count += 1;
    hash.update(`${posix(relative(outputDir, file))}\0`);
    hash.update(content);
    hash.update('\0');
  }
  return `${count}:${hash.digest('hex')}`;
}

export function readStamps(file) {
  try {
    const stamps = JSON.parse(readFileSync(file, 'utf8'));
    return stamps && typeof stamps === 'object' ? stamps : {};
  } catch {
    return {};
  }
}

/** Written whole and renamed into place, so a reader never sees half a file. */
export function writeStamps(file, stamps) {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(stamps, null, 2)}\n`);
  renameSync(temporary, file);
}
