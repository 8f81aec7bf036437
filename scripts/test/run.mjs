// `pnpm test`: every test, the build first. Then Vitest's unit, isolated and integration projects;
// then Vitest's alone project (the chaos run's HAProxy, Redis restarts and kill -9, and the read
// floods: no other suite's load may stretch their faults or starve a flood); then, in Chromium, the
// end-to-end suite beside the widget's browser tests. Measured on CI's two cores: Vitest alone
// 91 s, and the two browser suites side by side 188 s where Vitest beside the widget took 161 s
// and the end-to-end suite after it 130 s. The widget's output is held and printed when it ends,
// so the end-to-end suite's stays readable; any failure fails the command after the stage it is in.
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
await stage("Vitest's unit, isolated and integration projects", vitest('unit', 'isolated', 'integration'));
await stage("Vitest's alone project: the chaos run and the read floods, one at a time", vitest('alone'));
await stage(
  'in Chromium: the end-to-end suite, beside the widget',
  playwright('e2e'),
  playwright('packages/widget', { held: true }),
);
process.stdout.write(`\n== test: every test passed in ${seconds()}\n`);
