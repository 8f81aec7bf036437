// Builds what the demo needs, quietly: the workspace packages (pnpm -w build, incremental), then
// the demo's server (tsc -b) and its pages (vite build) side by side. Prints the tools' output
// only when a step fails.
import { spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const demoDir = fileURLToPath(new URL('..', import.meta.url));

function run(label, args) {
  return new Promise((resolve) => {
    const child = spawn('pnpm', args, { cwd: demoDir, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', (error) => {
      process.stderr.write(`demo build: ${label} could not start: ${error.message}\n`);
      process.exit(1);
    });
    child.on('close', (code) => {
      if (code !== 0) {
        process.stderr.write(`demo build: ${label} failed\n${output}\n`);
        process.exit(code ?? 1);
      }
      resolve();
    });
  });
}

export async function buildDemo() {
  await run('building the workspace packages (pnpm -w build)', ['-w', '-s', 'run', 'build']);
  await Promise.all([
    run('compiling the demo server (tsc -b)', ['exec', 'tsc', '-b', 'tsconfig.json']),
    run('building the demo pages (vite build)', ['exec', 'vite', 'build', '--logLevel', 'warn']),
  ]);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await buildDemo();
