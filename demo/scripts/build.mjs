// Builds what the demo needs, quietly: the workspace packages (tsc/vite, incremental), the demo's
// server (tsc -b) and its pages (Vite). Prints the tools' output only when a step fails.
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const demoDir = fileURLToPath(new URL('..', import.meta.url));

function run(label, command, args) {
  const result = spawnSync(command, args, {
    cwd: demoDir,
    encoding: 'utf8',
    shell: process.platform === 'win32',
  });
  if (result.status !== 0) {
    process.stderr.write(`demo build: ${label} failed\n${result.stdout ?? ''}${result.stderr ?? ''}\n`);
    if (result.error) process.stderr.write(`${result.error.message}\n`);
    process.exit(result.status ?? 1);
  }
}

export function buildDemo() {
  run('building the workspace packages (pnpm -w build)', 'pnpm', ['-w', '-s', 'run', 'build']);
  run('compiling the demo server (tsc -b)', 'pnpm', ['exec', 'tsc', '-b', 'tsconfig.json']);
  run('building the demo pages (vite build)', 'pnpm', ['exec', 'vite', 'build', '--logLevel', 'warn']);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) buildDemo();
