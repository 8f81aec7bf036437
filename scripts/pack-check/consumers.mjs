import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { checkNeutralBundle } from '../../packages/core/scripts/neutral-bundle.mjs';
import { run, start } from './exec.mjs';
import { probeExpressExample, probeHonoExample } from './probe.mjs';

const NPM_FLAGS = ['--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'];

/** Exact versions of the workspace's catalog, so the temporary projects use what CI tested. */
export async function catalogVersion(root, name) {
  const yaml = await readFile(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const line = yaml.split('\n').find((l) => l.trim().replace(/"/g, '').startsWith(`${name}:`));
  if (!line) throw new Error(`${name} is not in the pnpm catalog`);
  return line.split(':').slice(1).join(':').trim();
}

async function project(dir, name, dependencies, tsconfig) {
  await mkdir(dir, { recursive: true });
  const manifest = { name, private: true, type: 'module', dependencies };
  await writeFile(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  await writeFile(join(dir, 'tsconfig.json'), `${JSON.stringify({ compilerOptions: tsconfig }, null, 2)}\n`);
  await run('npm', ['install', ...NPM_FLAGS], { cwd: dir });
}

function typecheck(root, dir) {
  const tsc = join(root, 'node_modules/typescript/bin/tsc');
  return run('node', [tsc, '-p', '.', '--strict', '--skipLibCheck', 'false'], { cwd: dir });
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
  const deps = { ...tarballs };
  for (const name of [
    'express',
    'express-session',
    '@types/express',
    '@types/express-session',
    '@types/node',
  ]) {
    deps[name] = (await catalogVersion(root, name)).replace(/^\^/, '');
  }
  await project(dir, 'server', deps, {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    types: ['node'],
    outDir: 'out',
  });
  await copyFile(join(root, 'examples/express/server.ts'), join(dir, 'server.ts'));
  await typecheck(root, dir);
  const sandbox = await startSandbox(dir);
  try {
    const app = await start('node', ['out/server.js'], {
      cwd: dir,
      ready: /listening on (http:\/\/\S+)/,
      env: {
        IDV_BASE_URL: sandbox.url,
        IDV_API_KEY: sandbox.apiKey,
        SESSION_SECRET: 'pack-check',
        PORT: '0',
      },
    });
    try {
      return await probeExpressExample(app.match[1]);
    } finally {
      app.stop();
    }
  } finally {
    sandbox.stop();
  }
}

/**
 * hono + @hono/node-server + @verify-kit/hono (and the sandbox to run against): the Hono README's
 * example, compiled strictly and run; the installed main entry bundled for a neutral platform.
 */
export async function checkHono(root, dir, tarballs) {
  const deps = { ...tarballs };
  for (const name of ['hono', '@hono/node-server', '@types/node']) {
    deps[name] = (await catalogVersion(root, name)).replace(/^\^/, '');
  }
  await project(dir, 'hono-server', deps, {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    types: ['node'],
    outDir: 'out',
  });
  await copyFile(join(root, 'examples/hono/server.ts'), join(dir, 'server.ts'));
  await typecheck(root, dir);
  const neutral = await checkNeutralBundle(join(dir, 'node_modules/@verify-kit/hono/dist/index.js'));
  if (neutral.offences.length > 0) {
    const found = neutral.offences.map(({ path, importer }) => `${path} (imported by ${importer})`);
    throw new Error(`@verify-kit/hono's published entry imports what Workers lack: ${found.join(', ')}`);
  }
  const sandbox = await startSandbox(dir);
  try {
    const app = await start('node', ['out/server.js'], {
      cwd: dir,
      ready: /listening on (http:\/\/\S+)/,
      env: {
        IDV_BASE_URL: sandbox.url,
        IDV_API_KEY: sandbox.apiKey,
        VERIFY_KIT_SECRET: 'pack-check-secret-of-32-characters-or-more',
        PORT: '0',
      },
    });
    try {
      const { phase } = await probeHonoExample(app.match[1]);
      return { phase, modules: neutral.inputs };
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
