import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildGraph } from '../scripts/build-graph.mjs';
import { buildStale } from '../scripts/build-stale.mjs';

/*
 * `pnpm demo` skips the builds whose output is current. These tests run the real scheduler over a
 * small workspace in a temporary directory (app -> lib -> core, and tool beside them) whose
 * "build" writes dist/out.txt from the package's sources and its dependencies' outputs, and check
 * after every run that no output is stale, whatever changed.
 */

let root: string;
let builds: string[];
let cleanBuilds: string[];
let failing: string | undefined;

const dirOf = (name: string) => join(root, name);
const write = (path: string, text: string) => {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
};

function addPackage(name: string, deps: string[], devDeps: string[] = []) {
  const dir = dirOf(name);
  const workspace = (list: string[]) => Object.fromEntries(list.map((d) => [`@t/${d}`, 'workspace:*']));
  write(
    join(dir, 'package.json'),
    JSON.stringify({
      name: `@t/${name}`,
      dependencies: workspace(deps),
      devDependencies: workspace(devDeps),
    }),
  );
  write(join(dir, 'src', 'index.ts'), `export const ${name} = 1;\n`);
  for (const dep of [...deps, ...devDeps]) {
    mkdirSync(join(dir, 'node_modules', '@t'), { recursive: true });
    symlinkSync(dirOf(dep), join(dir, 'node_modules', '@t', dep));
  }
}

/** What a correct build of `name` writes now: its sources, then its dependencies' outputs. */
function expectedOutput(name: string): string {
  const manifest = JSON.parse(readFileSync(join(dirOf(name), 'package.json'), 'utf8'));
  const deps = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }).map((d) =>
    d.replace('@t/', ''),
  );
  const own = readFileSync(join(dirOf(name), 'src', 'index.ts'), 'utf8');
  return [own, ...deps.map((d) => readFileSync(join(dirOf(d), 'dist', 'out.txt'), 'utf8'))].join('|');
}

async function buildAll(force = false): Promise<string[]> {
  builds = [];
  cleanBuilds = [];
  const built = await buildStale({
    graph: buildGraph(dirOf('app')),
    stampsFile: join(root, 'stamps.json'),
    sharedInputs: [join(root, 'tsconfig.json')],
    // Incremental like tsc -b: it trusts its build info and writes nothing when the sources are
    // unchanged, even if its output was deleted; a clean build ignores the build info.
    build: async (node: { name: string; dir: string }, { clean }: { clean: boolean }) => {
      const name = node.name.replace('@t/', '');
      builds.push(name);
      if (clean) cleanBuilds.push(name);
      if (name === failing) throw new Error(`${name} failed`);
      const output = expectedOutput(name);
      const info = join(node.dir, 'dist', '.tsbuildinfo');
      if (!clean && existsSync(info) && readFileSync(info, 'utf8') === output) return;
      write(join(node.dir, 'dist', 'out.txt'), output);
      write(info, output);
    },
    force,
  });
  return [...built].map((n: string) => n.replace('@t/', '')).sort();
}

function expectNothingStale() {
  for (const name of ['core', 'lib', 'tool', 'app']) {
    expect(readFileSync(join(dirOf(name), 'dist', 'out.txt'), 'utf8'), name).toBe(expectedOutput(name));
  }
}

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'demo-build-'));
  failing = undefined;
  write(join(root, 'tsconfig.json'), '{}');
  addPackage('core', []);
  addPackage('tool', []);
  addPackage('lib', ['core']);
  addPackage('app', ['lib'], ['tool']);
  expect(await buildAll()).toEqual(['app', 'core', 'lib', 'tool']);
  expectNothingStale();
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('buildStale (what `pnpm demo` rebuilds)', () => {
  it('orders the graph from the package.json workspace dependencies, dev ones included', () => {
    const order = buildGraph(dirOf('app')).map((n: { name: string }) => n.name);
    expect(order.at(-1)).toBe('@t/app');
    expect(order.indexOf('@t/core')).toBeLessThan(order.indexOf('@t/lib'));
    expect(order).toContain('@t/tool');
  });

  it('builds nothing when nothing changed, even after a rebuild from the same sources', async () => {
    expect(await buildAll()).toEqual([]);
    // Someone else rebuilt core from the same sources: new mtimes, same content.
    write(join(dirOf('core'), 'dist', 'out.txt'), expectedOutput('core'));
    utimesSync(join(dirOf('core'), 'dist', 'out.txt'), new Date(), new Date(Date.now() + 5000));
    expect(await buildAll()).toEqual([]);
  });

  it('rebuilds a changed package and everything that depends on it, in order', async () => {
    write(join(dirOf('core'), 'src', 'index.ts'), 'export const core = 2;\n');
    expect(await buildAll()).toEqual(['app', 'core', 'lib']);
    expect(builds.indexOf('core')).toBeLessThan(builds.indexOf('lib'));
    expect(builds.indexOf('lib')).toBeLessThan(builds.indexOf('app'));
    expect(cleanBuilds).toEqual([]);
    expectNothingStale();
  });

  it('counts a new file, a removed file, package.json and the shared config as inputs', async () => {
    write(join(dirOf('tool'), 'src', 'extra.ts'), 'export {};\n');
    expect(await buildAll()).toEqual(['app', 'tool']);
    rmSync(join(dirOf('tool'), 'src', 'extra.ts'));
    expect(await buildAll()).toEqual(['app', 'tool']);
    write(join(dirOf('lib'), 'vite.config.ts'), 'export default {};\n');
    expect(await buildAll()).toEqual(['app', 'lib']);
    write(join(root, 'tsconfig.json'), '{ "compilerOptions": {} }');
    expect(await buildAll()).toEqual(['app', 'core', 'lib', 'tool']);
    expectNothingStale();
  });

  it('does not count tests and documents as inputs', async () => {
    write(join(dirOf('core'), 'test', 'a.test.ts'), 'test\n');
    write(join(dirOf('core'), 'README.md'), '# core\n');
    expect(await buildAll()).toEqual([]);
  });

  it('rebuilds a package whose output was deleted, edited or left by another build, from clean', async () => {
    rmSync(join(dirOf('tool'), 'dist', 'out.txt'));
    expect(await buildAll()).toEqual(['app', 'tool']);
    expect(cleanBuilds).toEqual(['tool']);
    expectNothingStale();
    write(join(dirOf('lib'), 'dist', 'out.txt'), 'built from other sources');
    expect(await buildAll()).toEqual(['app', 'lib']);
    expect(cleanBuilds).toEqual(['lib']);
    expectNothingStale();
    rmSync(join(dirOf('app'), 'dist'), { recursive: true });
    expect(await buildAll()).toEqual(['app']);
    expectNothingStale();
  });

  it('after a failed build, builds nothing that depends on it and retries it next time', async () => {
    write(join(dirOf('lib'), 'src', 'index.ts'), 'export const lib = 2;\n');
    failing = 'lib';
    await expect(buildAll()).rejects.toThrow('lib failed');
    expect(builds).toEqual(['lib']);
    failing = undefined;
    expect(await buildAll()).toEqual(['app', 'lib']);
    expectNothingStale();
  });

  it('rebuilds everything from clean when forced, or when there is no stamp', async () => {
    expect(await buildAll(true)).toEqual(['app', 'core', 'lib', 'tool']);
    expect([...cleanBuilds].sort()).toEqual(['app', 'core', 'lib', 'tool']);
    rmSync(join(root, 'stamps.json'));
    expect(await buildAll()).toEqual(['app', 'core', 'lib', 'tool']);
    expect([...cleanBuilds].sort()).toEqual(['app', 'core', 'lib', 'tool']);
  });
});
