import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { root } from './readmes.js';

interface Manifest {
  dir: string;
  name: string;
  private?: boolean;
  scripts?: Record<string, string>;
  bin?: string | Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  packageManager?: string;
}

/** The workspace's package.json files: the root, packages/*, demo, e2e, examples. */
export async function readWorkspace(): Promise<Manifest[]> {
  const workspace = await readFile(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const packagesSection = workspace.match(/^packages:\n((?:\s+-.*\n)+)/m)?.[1] ?? '';
  const dirs = ['.'];
  for (const [, pattern] of packagesSection.matchAll(/-\s+['"]?([^'"\n]+)['"]?/g)) {
    if (pattern === undefined) continue;
    if (pattern.endsWith('/*')) {
      const parent = pattern.slice(0, -2);
      for (const name of await readdir(join(root, parent))) dirs.push(`${parent}/${name}`);
    } else dirs.push(pattern);
  }
  const manifests: Manifest[] = [];
  for (const dir of dirs) {
    const file = join(root, dir, 'package.json');
    if (existsSync(file)) manifests.push({ ...JSON.parse(await readFile(file, 'utf8')), dir });
  }
  return manifests;
}

/** The commands of a shell block: comments dropped, `\` continuations joined, split at `&&`, `||`, `;`, `|`. */
export function shellCommands(block: string): string[] {
  return block
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.replace(/(^|\s)#.*$/, '').trim())
    .flatMap((line) => line.split(/&&|\|\||;|\|/))
    .map((command) =>
      command
        .trim()
        .replace(/\s+/g, ' ')
        .replace(/^(\w+=\S*\s+)+/, ''),
    )
    .filter((command) => command !== '');
}

const binsOf = (manifest: Manifest): string[] =>
  typeof manifest.bin === 'string'
    ? [manifest.name.replace(/^@[^/]+\//, '')]
    : Object.keys(manifest.bin ?? {});

/** What is wrong with one command of a README's shell block, or undefined when it names real things. */
export function checkCommand(command: string, workspace: Manifest[]): string | undefined {
  const words = command.split(/\s+/);
  const rootManifest = workspace.find((manifest) => manifest.dir === '.')!;
  const [program, ...args] = words;
  if (program === 'curl') return undefined;
  if (program === 'npx') {
    const rest = args.filter((arg) => arg !== '-y');
    const [bin, ...binArgs] = rest;
    const pnpm = bin?.match(/^pnpm@(.+)$/);
    if (pnpm) {
      const pinned = rootManifest.packageManager?.replace(/^pnpm@/, '');
      if (pnpm[1] !== pinned) return `pins pnpm@${pnpm[1]}, package.json says ${rootManifest.packageManager}`;
      return checkPnpm(binArgs, workspace, rootManifest);
    }
    if (!workspace.some((manifest) => binsOf(manifest).includes(bin ?? '')))
      return `no package has a bin ${bin}`;
    return undefined;
  }
  if (program === 'npm') return checkNpmInstall(args, workspace);
  if (program === 'pnpm') return checkPnpm(args, workspace, rootManifest);
  return `unknown program ${program}`;
}

function checkNpmInstall(args: string[], workspace: Manifest[]): string | undefined {
  const [verb, ...names] = args;
  if (verb !== 'i' && verb !== 'install') return `npm ${verb} is not an install`;
  for (const name of names.filter((arg) => !arg.startsWith('-'))) {
    const own = workspace.find((manifest) => manifest.name === name);
    if (own?.private) return `${name} is private: it is not published`;
    if (own) continue;
    const known = workspace.some((manifest) =>
      [manifest.dependencies, manifest.devDependencies, manifest.peerDependencies].some(
        (deps) => deps !== undefined && name in deps,
      ),
    );
    if (!known) return `${name} is no dependency of any verify-kit package`;
  }
  return undefined;
}

const PNPM_COMMANDS = new Set(['install', 'i']);

function checkPnpm(args: string[], workspace: Manifest[], rootManifest: Manifest): string | undefined {
  let target = rootManifest;
  let rest = args.filter((arg) => arg !== '-s' && arg !== '-r' && arg !== '--recursive');
  if (rest[0] === '--filter') {
    // A selector may take the package's dependencies too: `name...`, `name^...`, `...name`.
    const name = rest[1]
      ?.replace(/^"|"$/g, '')
      .replace(/^\.\.\./, '')
      .replace(/\^?\.\.\.$/, '');
    const found = workspace.find((manifest) => manifest.name === name);
    if (!found) return `--filter ${rest[1]}: no such workspace package`;
    target = found;
    rest = rest.slice(2);
  }
  if (rest[0] === 'run') rest = rest.slice(1);
  const [script, ...scriptArgs] = rest;
  if (script === undefined) return 'pnpm without a command';
  if (PNPM_COMMANDS.has(script) && target === rootManifest) return undefined;
  if (!target.scripts?.[script]) return `${target.name} has no script ${script}`;
  if (script === 'test:unit') {
    const path = scriptArgs.find((arg) => !arg.startsWith('-'));
    if (path !== undefined && !existsSync(join(root, path))) return `test:unit ${path}: no such path`;
  }
  return undefined;
}
