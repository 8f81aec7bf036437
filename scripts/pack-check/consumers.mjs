import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { checkNeutralBundle } from '../../packages/core/scripts/neutral-bundle.mjs';
import { run, start } from './exec.mjs';
import { probeExpressExample, probeHonoExample, probeNextApp } from './probe.mjs';

const NPM_FLAGS = ['--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'];
/** What the Express and Hono examples print once they listen, their URL first. */
const LISTENING = /listening on (http:\/\/\S+)/;
/** VERIFY_KIT_SECRET of the Hono example and the Next.js app. */
const PACK_CHECK_SECRET = 'pack-check-secret-of-32-characters-or-more';

/** Exact versions of the workspace's catalog, so the temporary projects use what CI tested. */
export async function catalogVersion(root, name) {
  const yaml = await readFile(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const line = yaml.split('\n').find((l) => l.trim().replace(/"/g, '').startsWith(`${name}:`));
  if (!line) throw new Error(`${name} is not in the pnpm catalog`);
  return line.split(':').slice(1).join(':').trim();
}

/** The tarballs, and `names` at the exact versions of the catalog (its range's caret dropped). */
async function withCatalog(root, tarballs, names) {
  const deps = { ...tarballs };
  for (const name of names) deps[name] = (await catalogVersion(root, name)).replace(/^\^/, '');
  return deps;
}

/** A Node server example's compiler options (checkServer, checkHono): out/server.js is what runs. */
const NODE_SERVER = {
  target: 'ES2022',
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  types: ['node'],
  outDir: 'out',
};

async function project(dir, name, dependencies, tsconfig) {
  await mkdir(dir, { recursive: true });
  const manifest = { name, private: true, type: 'module', dependencies };
  await writeFile(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  await writeFile(join(dir, 'tsconfig.json'), `${JSON.stringify({ compilerOptions: tsconfig }, null, 2)}\n`);
  await run('npm', ['install', ...NPM_FLAGS], { cwd: dir });
}

function typecheck(root, dir, { skipLibCheck = false } = {}) {
  const tsc = join(root, 'node_modules/typescript/bin/tsc');
  return run('node', [tsc, '-p', '.', '--strict', '--skipLibCheck', String(skipLibCheck)], { cwd: dir });
}

/** The widget alone, as a frontend built with a bundler would take it; no Node types. */
export async function checkFrontend(root, dir, tarballs) {
  await project(dir, 'frontend-only', tarballs, {
    target: 'ES2022',
    module: 'ESNext',
    moduleResolution: 'bundler',
    lib: ['ES2023', 'DOM', 'DOM.Iterable'],
    types: [],
    noEmit: true,
  });
  await copyFile(join(root, 'examples/widget/verify-page.ts'), join(dir, 'verify-page.ts'));
  await typecheck(root, dir);
}

/** express + client + sandbox: the README's server example, compiled and run against the sandbox. */
export async function checkServer(root, dir, tarballs) {
  const deps = await withCatalog(root, tarballs, [
    'express',
    'express-session',
    '@types/express',
    '@types/express-session',
    '@types/node',
  ]);
  await project(dir, 'server', deps, NODE_SERVER);
  await copyFile(join(root, 'examples/express/server.ts'), join(dir, 'server.ts'));
  await typecheck(root, dir);
  return probeAgainstSandbox(dir, ['node', ['out/server.js']], {
    ready: LISTENING,
    env: { SESSION_SECRET: 'pack-check', PORT: '0' },
    probe: probeExpressExample,
  });
}

/**
 * hono + @hono/node-server + @verify-kit/hono (and the sandbox to run against): the Hono README's
 * example, compiled strictly and run; the installed main entry bundled for a neutral platform. With
 * @verify-kit/otel and @opentelemetry/api: its README's Hono line compiled beside it, and its
 * entry bundled for a neutral platform too.
 */
export async function checkHono(root, dir, tarballs) {
  const deps = await withCatalog(root, tarballs, [
    'hono',
    '@hono/node-server',
    '@types/node',
    '@opentelemetry/api',
  ]);
  await project(dir, 'hono-server', deps, NODE_SERVER);
  await copyFile(join(root, 'examples/hono/server.ts'), join(dir, 'server.ts'));
  await copyFile(join(root, 'examples/otel/hono.ts'), join(dir, 'otel.ts'));
  await typecheck(root, dir);
  const modules = {};
  for (const name of ['hono', 'otel']) {
    const neutral = await checkNeutralBundle(join(dir, `node_modules/@verify-kit/${name}/dist/index.js`));
    if (neutral.offences.length > 0) {
      const found = neutral.offences.map(({ path, importer }) => `${path} (imported by ${importer})`);
      throw new Error(`@verify-kit/${name}'s published entry imports what Workers lack: ${found.join(', ')}`);
    }
    modules[name] = neutral.inputs;
  }
  const { phase } = await probeAgainstSandbox(dir, ['node', ['out/server.js']], {
    ready: LISTENING,
    env: { VERIFY_KIT_SECRET: PACK_CHECK_SECRET, PORT: '0' },
    probe: probeHonoExample,
  });
  return { phase, modules: modules.hono, otelModules: modules.otel };
}

/** The README's files of @verify-kit/next: its ```ts blocks that begin with `// <path>`. */
export async function nextReadmeFiles(root, paths) {
  const readme = await readFile(join(root, 'packages/next/README.md'), 'utf8');
  const blocks = [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1]);
  return paths.map((path) => {
    const found = blocks.filter(
      (block) => block.startsWith(`// ${path}\n`) || block.startsWith(`// ${path} (`),
    );
    if (found.length !== 1)
      throw new Error(`packages/next/README.md: ${found.length} blocks for ${path}, not 1`);
    return { path, text: found[0] };
  });
}

const NEXT_FILES = ['lib/verify-kit.ts', 'app/identity/[...path]/route.ts', 'proxy.ts'];

/**
 * next + react + react-dom from npm and @verify-kit/next's tarball: an App Router app of exactly the
 * README's three files, installed here (network and disk, so run.mjs starts it beside the other
 * projects' checks), then built, type-checked and run by checkNext.
 */
export async function installNext(root, dir, tarballs) {
  const deps = await withCatalog(root, tarballs, [
    'next',
    'react',
    'react-dom',
    '@types/react',
    '@types/node',
    'typescript',
  ]);
  // skipLibCheck: true in this project only, for checkNext's type-check after the build: from then
  // on next-env.d.ts brings in Next's own .d.ts files, which fail a strict check of themselves
  // (next 16.4.6: URLPattern, missing in TypeScript's lib; react-dom's types, which next does not
  // depend on), and no app can fix that. The check before the build is skipLibCheck false.
  await project(dir, 'next-app', deps, {
    target: 'ES2022',
    lib: ['dom', 'dom.iterable', 'esnext'],
    module: 'esnext',
    moduleResolution: 'bundler',
    jsx: 'react-jsx',
    isolatedModules: true,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
    paths: { '@/*': ['./*'] },
  });
  for (const { path, text } of await nextReadmeFiles(root, NEXT_FILES)) {
    await mkdir(join(dir, dirname(path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  // checkNext type-checks the app with this tsconfig: the build need not check it too.
  await writeFile(
    join(dir, 'next.config.mjs'),
    'export default { typescript: { ignoreBuildErrors: true } };\n',
  );
}

/**
 * The app installNext made: tsc --strict with skipLibCheck false (the three files and every .d.ts
 * they reach, ours included: none of Next's yet), `next build` (no secrets: createVerifyKit checks
 * its options at `next start`), tsc --strict again with the types the build writes (next-env.d.ts,
 * and Next's check of route.ts's exports), then `next start` against the sandbox: the proxy gates
 * /account, the route handlers start a session.
 */
export async function checkNext(root, dir) {
  const next = ['node_modules/next/dist/bin/next'];
  const env = { NEXT_TELEMETRY_DISABLED: '1' };
  await typecheck(root, dir);
  const built = performance.now();
  await run('node', [...next, 'build'], { cwd: dir, env });
  const buildSeconds = (performance.now() - built) / 1000;
  await typecheck(root, dir, { skipLibCheck: true });
  const { phase } = await probeAgainstSandbox(
    dir,
    ['node', [...next, 'start', '--port', '0', '--hostname', '127.0.0.1']],
    {
      ready: /Local:\s+(http:\/\/\S+)[\s\S]*Ready/,
      env: { ...env, VERIFY_KIT_SECRET: PACK_CHECK_SECRET },
      probe: probeNextApp,
    },
  );
  return { phase, buildSeconds };
}

/**
 * An installed project's app against a sandbox of its own: the sandbox started, then `command` in
 * `dir` with the sandbox's URL and key (IDV_BASE_URL, IDV_API_KEY) and `env`, until its output
 * matches `ready`; then `probe` of the URL ready's first group caught. Both stopped after.
 */
async function probeAgainstSandbox(dir, [command, args], { ready, env, probe }) {
  const sandbox = await startSandbox(dir);
  try {
    const app = await start(command, args, {
      cwd: dir,
      ready,
      env: { IDV_BASE_URL: sandbox.url, IDV_API_KEY: sandbox.apiKey, ...env },
    });
    try {
      return await probe(app.match[1]);
    } finally {
      app.stop();
    }
  } finally {
    sandbox.stop();
  }
}

async function startSandbox(dir) {
  const manifest = JSON.parse(
    await readFile(join(dir, 'node_modules/@verify-kit/sandbox/package.json'), 'utf8'),
  );
  const flags = ['--port', '0', '--api-key', 'sk_sandbox_pack_check'];
  // TODO(lead): once the sandbox's `bin` (branch upstream) is merged, only the npx form remains.
  const command = manifest.bin?.['verify-kit-sandbox']
    ? ['npx', ['--no-install', 'verify-kit-sandbox', ...flags]]
    : ['node', ['node_modules/@verify-kit/sandbox/dist/cli.js', ...flags]];
  const started = await start(command[0], command[1], {
    cwd: dir,
    ready: /API base:\s+(http:\/\/\S+)\/api\/v1/,
  });
  return { url: started.match[1], apiKey: 'sk_sandbox_pack_check', stop: started.stop };
}
