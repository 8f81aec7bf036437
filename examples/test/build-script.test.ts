import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { root } from './support/readmes.js';

// `pnpm build` (scripts/build/run.mjs), which `pnpm test`, `pnpm test:unit` and `pnpm sandbox` run
// first: on a fresh clone it builds what the suites read from dist/, and when nothing changed it
// builds nothing. Run here on a small workspace of its own: `lib` and `app` (which depends on lib),
// whose build scripts log each run to builds.log.
let work: string;

const BUILD = `import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
const name = process.argv[2];
appendFileSync('../builds.log', \`\${name} (buildinfo \${existsSync('dist/.tsbuildinfo') ? 'kept' : 'gone'})\\n\`);
if (readFileSync('src/main.txt', 'utf8').includes('broken')) { console.error(\`\${name}: broken source\`); process.exit(2); }
mkdirSync('dist', { recursive: true });
const dep = name === 'app' ? readFileSync('../lib/dist/out.txt', 'utf8') : '';
writeFileSync('dist/out.txt', dep + readFileSync('src/main.txt', 'utf8'));
writeFileSync('dist/.tsbuildinfo', '{}');
`;

function writeProject(name: string, deps: Record<string, string>) {
  mkdirSync(join(work, name, 'src'), { recursive: true });
  mkdirSync(join(work, name, 'test'), { recursive: true });
  writeFileSync(
    join(work, name, 'package.json'),
    JSON.stringify({ name, scripts: { build: `node ../build.mjs ${name}` }, dependencies: deps }),
  );
  writeFileSync(join(work, name, 'src/main.txt'), `${name} 1\n`);
  writeFileSync(join(work, name, 'test/main.test.txt'), 'test 1\n');
}

beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'verify-kit-build-'));
  cpSync(join(root, 'scripts/build'), join(work, 'scripts/build'), { recursive: true });
  writeFileSync(join(work, 'pnpm-workspace.yaml'), "packages:\n  - 'lib'\n  - 'app'\n");
  writeFileSync(join(work, 'tsconfig.json'), '{}');
  writeFileSync(join(work, '.gitignore'), 'dist/\nnode_modules/\nbuilds.log\n');
  writeFileSync(join(work, 'build.mjs'), BUILD);
  writeProject('lib', {});
  writeProject('app', { lib: 'workspace:*', express: '^5.0.0' });
  execFileSync('git', ['init', '-q'], { cwd: work });
});

afterEach(() => {
  rmSync(work, { recursive: true, force: true });
});

/** Runs the build; its exit code, output, and the builds it ran, in order. */
function build(...args: string[]): Promise<{ code: number | null; output: string; builds: string[] }> {
  const logFile = join(work, 'builds.log');
  rmSync(logFile, { force: true });
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(work, 'scripts/build/run.mjs'), ...args], { cwd: work });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('close', (code) => {
      const builds = existsSync(logFile) ? readFileSync(logFile, 'utf8').trim().split('\n') : [];
      resolve({ code, output, builds });
    });
  });
}

const out = (name: string) => readFileSync(join(work, name, 'dist/out.txt'), 'utf8');

test('a first build builds every project, dependencies first; the next one builds nothing', async () => {
  const first = await build();
  expect(first.code, first.output).toBe(0);
  expect(first.builds).toEqual(['lib (buildinfo gone)', 'app (buildinfo gone)']);
  expect(out('app')).toBe('lib 1\napp 1\n');

  const second = await build();
  expect(second.code, second.output).toBe(0);
  expect(second.builds).toEqual([]);
  expect(second.output).toMatch(/2 projects unchanged/);
});

test('a changed source rebuilds its project and what depends on it, incrementally; a test edit rebuilds nothing', async () => {
  await build();
  writeFileSync(join(work, 'lib/test/main.test.txt'), 'test 2\n');
  expect((await build()).builds).toEqual([]);

  writeFileSync(join(work, 'app/src/main.txt'), 'app 2\n');
  expect((await build()).builds).toEqual(['app (buildinfo kept)']);

  writeFileSync(join(work, 'lib/src/main.txt'), 'lib 2\n');
  expect((await build()).builds).toEqual(['lib (buildinfo kept)', 'app (buildinfo kept)']);
  expect(out('app')).toBe('lib 2\napp 2\n');
});

test('an output deleted since the last build is rebuilt from scratch (its .tsbuildinfo removed first)', async () => {
  await build();
  rmSync(join(work, 'lib/dist/out.txt'));
  const result = await build();
  expect(result.builds).toEqual(['lib (buildinfo gone)']);
  expect(out('lib')).toBe('lib 1\n');
  expect((await build('--force')).builds).toEqual(['lib (buildinfo gone)', 'app (buildinfo gone)']);
});

test('a named project builds with what it depends on, and nothing else', async () => {
  expect((await build('lib')).builds).toEqual(['lib (buildinfo gone)']);
  expect(existsSync(join(work, 'app/dist'))).toBe(false);
  expect((await build('--quiet', 'lib')).output).toBe('');
  const unknown = await build('nope');
  expect([unknown.code, unknown.output]).toEqual([1, expect.stringMatching(/no workspace project nope/)]);
});

test('a failed build fails the command with its output, builds nothing after it, and is retried next time', async () => {
  writeFileSync(join(work, 'lib/src/main.txt'), 'broken\n');
  const failed = await build();
  expect(failed.code).toBe(1);
  expect(failed.output).toMatch(/lib: broken source/);
  expect(failed.builds).toEqual(['lib (buildinfo gone)']);

  writeFileSync(join(work, 'lib/src/main.txt'), 'lib 3\n');
  expect((await build()).builds).toEqual(['lib (buildinfo gone)', 'app (buildinfo gone)']);
});

test('two builds at once in one tree: the second waits, then finds the work done', async () => {
  const [a, b] = await Promise.all([build(), build()]);
  expect([a.code, b.code]).toEqual([0, 0]);
  // Both runs append to the one log, which each run clears when it starts: the builds happened once.
  const log = readFileSync(join(work, 'builds.log'), 'utf8').trim().split('\n');
  expect(log).toEqual(['lib (buildinfo gone)', 'app (buildinfo gone)']);
  expect(`${a.output}${b.output}`).toMatch(/2 projects unchanged/);
});
