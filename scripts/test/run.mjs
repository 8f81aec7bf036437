// `pnpm test`: every test, the build first. Vitest's unit and integration projects run beside the
// widget's browser tests (the first wait mostly on sockets, the second on Chromium: side by side
// they take 150 s where one after the other took 173), then Vitest's alone project (the chaos run's
// HAProxy, Redis restarts and kill -9, and the read floods: no other suite's load may stretch their
// faults or starve a flood), then the end-to-end suite
// (its clocks alone too: beside the rest it took longer than after it, and the floods failed). The
// widget's output is held and printed when it ends, so Vitest's own stays readable; any failure
// fails the command after the stage it is in.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const started = performance.now();
const seconds = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;

/**
 * Runs a command in `cwd` (a folder of the repository); `held`: its output kept and printed once it
 * ends. Resolves its exit code.
 */
function run(command, args, { held = false, cwd = '.' } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: join(root, cwd),
      stdio: held ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    const output = [];
    child.stdout?.on('data', (chunk) => output.push(chunk));
    child.stderr?.on('data', (chunk) => output.push(chunk));
    child.once('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
    child.once('close', (code) => {
      if (held) process.stdout.write(Buffer.concat(output));
      resolve(code ?? 1);
    });
  });
}

/** A package's Playwright suite, by its own config (never through pnpm: the command runs anywhere). */
const playwright = (folder, options = {}) => [
  join(root, folder, 'node_modules/.bin/playwright'),
  ['test'],
  { cwd: folder, ...options },
];
const vitest = (...projects) => [
  process.execPath,
  [
    'node_modules/vitest/vitest.mjs',
    'run',
    '--config',
    'packages/vitest.config.ts',
    ...projects.flatMap((p) => ['--project', p]),
  ],
];

async function stage(name, ...commands) {
  process.stdout.write(`\n== test: ${name} (at ${seconds()})\n`);
  const codes = await Promise.all(commands.map(([command, args, options]) => run(command, args, options)));
  if (codes.some((code) => code !== 0)) {
    process.stdout.write(`== test: ${name} failed (exit ${codes.join(', ')}) after ${seconds()}\n`);
    process.exit(1);
  }
}

await stage('build', [process.execPath, ['scripts/build/run.mjs']]);
await stage(
  "Vitest's unit and integration projects, beside the widget in Chromium",
  [...vitest('unit', 'isolated', 'integration')],
  playwright('packages/widget', { held: true }),
);
await stage("Vitest's alone project: the chaos run and the read floods, one at a time", vitest('alone'));
await stage('end to end, in Chromium', playwright('e2e'));
process.stdout.write(`\n== test: every test passed in ${seconds()}\n`);
