// Builds what the demo needs, quietly, and only what changed (build-stale.mjs): each workspace
// package the demo depends on, by its own `build` script, then the demo's server (tsc -b) and
// pages (vite build) side by side. `--force` or DEMO_FORCE_BUILD=1 rebuilds everything. Prints
// the tools' output only when a step fails.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildGraph } from './build-graph.mjs';
import { buildStale } from './build-stale.mjs';

const demoDir = fileURLToPath(new URL('..', import.meta.url));
const rootDir = join(demoDir, '..');

export class BuildError extends Error {
  constructor(message, exitCode) {
    super(message);
    this.name = 'BuildError';
    this.exitCode = exitCode;
  }
}

function run(label, cwd, args) {
  return new Promise((resolve, reject) => {
    const child = spawn('pnpm', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', (error) => reject(new BuildError(`${label} could not start: ${error.message}`, 1)));
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new BuildError(`${label} failed\n${output}`, code ?? 1));
    });
  });
}

/** tsc -b trusts its .tsbuildinfo and does not re-emit an output someone deleted: forget it. */
function forgetIncrementalState(dir) {
  for (const entry of readdirSync(join(dir, 'dist'), { recursive: true, withFileTypes: false })) {
    if (String(entry).endsWith('.tsbuildinfo')) rmSync(join(dir, 'dist', String(entry)), { force: true });
  }
}

function buildOne(node, { clean }) {
  if (clean && existsSync(join(node.dir, 'dist'))) forgetIncrementalState(node.dir);
  if (node.dir !== demoDir) {
    // A source-only package (the test kit) has nothing to build.
    if (!node.manifest.scripts?.build) return Promise.resolve();
    return run(`building ${node.name}`, node.dir, ['-s', 'run', 'build']);
  }
  return Promise.all([
    run('compiling the demo server (tsc -b)', demoDir, ['exec', 'tsc', '-b', 'tsconfig.json']),
    run('building the demo pages (vite build)', demoDir, ['exec', 'vite', 'build', '--logLevel', 'warn']),
  ]);
}

/** Builds the stale packages; answers their names. Rejects with a BuildError when a step fails. */
export function buildDemo({ force = process.env.DEMO_FORCE_BUILD === '1' } = {}) {
  mkdirSync(join(demoDir, 'dist'), { recursive: true });
  return buildStale({
    graph: buildGraph(demoDir),
    stampsFile: join(demoDir, 'dist', '.build-stamps.json'),
    // Read by every build: the shared compiler options and the exact version of every tool.
    sharedInputs: [join(rootDir, 'tsconfig.json'), join(rootDir, 'pnpm-lock.yaml')],
    build: buildOne,
    force,
  });
}

/** For the command line: a failed step prints its output and ends the process with its code. */
export async function buildDemoOrExit(options) {
  try {
    return await buildDemo(options);
  } catch (error) {
    process.stderr.write(`demo build: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(error instanceof BuildError ? error.exitCode : 1);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await buildDemoOrExit(process.argv.includes('--force') ? { force: true } : {});
}
