// The pack check (`pnpm pack:check`, after `pnpm build`): each published package as a registry
// would serve it. Packs every package, lints the tarball (publint, Are the Types Wrong?, and its
// packed package.json: ranges, not exact versions, in dependencies and peerDependencies), then
// installs the tarballs with npm into projects outside the workspace — a frontend with the widget
// alone, a server with express + client + sandbox, a Hono server, and a Next.js App Router app of the
// Next README's three files (built with `next build`) — type-checks them strictly (skipLibCheck
// false; the Next app once more after its build with skipLibCheck true: see installNext), and runs
// the servers against the sandbox. Any failure exits 1.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkFrontend, checkHono, checkNext, checkServer, installNext } from './consumers.mjs';
import {
  attw,
  exactVersions,
  forbiddenEntries,
  PUBLISHED,
  pack,
  packedManifest,
  publint,
  sourceConditions,
} from './tarballs.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
const log = (line) => process.stdout.write(`[${elapsed()}] ${line}\n`);

async function lintTarball(tarball) {
  const manifest = await packedManifest(tarball.file);
  const problems = [
    ...forbiddenEntries(tarball.entries).map((entry) => `the tarball must not hold ${entry}`),
    ...sourceConditions(manifest),
    ...exactVersions(manifest),
  ];
  if (problems.length > 0) throw new Error(`${tarball.name}: ${problems.join('; ')}`);
  const publintOutput = (await publint(root, tarball.file)).trim().split('\n').at(-1);
  const attwOutput = (await attw(root, tarball.file)).includes('ignored per resolution')
    ? 'no problems in node16-esm and bundler (node10, node16-cjs ignored: ESM-only)'
    : 'no problems';
  const kib = (tarball.size / 1024).toFixed(1);
  log(
    `  ${tarball.name}: ${kib} KiB, ${tarball.entries.length} files; publint: ${publintOutput}; attw: ${attwOutput}`,
  );
}

async function main() {
  const work = await mkdtemp(join(tmpdir(), 'verify-kit-pack-'));
  let nextInstalled;
  try {
    log('packing and linting the tarballs');
    const tarballs = await Promise.all(PUBLISHED.map((name) => pack(root, name, join(work, 'tarballs'))));
    await Promise.all(tarballs.map(lintTarball));
    const spec = (name) => `file:${tarballs.find((t) => t.name === name).file}`;

    // The Next.js app's npm install (next alone is 100 MB on disk) waits on the network and the
    // disk, not the CPU: it goes on beside the projects below.
    log('next project (next + react + core + client + sandbox): npm install, beside the projects below');
    nextInstalled = installNext(root, join(work, 'next'), {
      '@verify-kit/next': spec('next'),
      '@verify-kit/core': spec('core'),
      '@verify-kit/client': spec('client'),
      '@verify-kit/sandbox': spec('sandbox'),
      '@verify-kit/protocol': spec('protocol'),
    });
    nextInstalled.catch(() => {}); // awaited below; a failure is reported there, not as unhandled

    // The three projects wait mostly on npm and on their servers' starts: side by side (measured on
    // CI's two cores, beside lint and the Node 24 pass: one after the other they took 67 s).
    log('frontend-only project (widget): npm install, tsc --strict --skipLibCheck false');
    log('server project (express + core + client + sandbox): npm install, tsc, run against the sandbox');
    log(
      'hono project (hono + @hono/node-server + core + client + sandbox + otel): npm install, tsc, neutral bundles, run',
    );
    const [, status, hono] = await Promise.all([
      // The widget's one dependency of ours, @verify-kit/protocol, is not in a registry yet: its tarball too.
      checkFrontend(root, join(work, 'frontend'), {
        '@verify-kit/widget': spec('widget'),
        '@verify-kit/protocol': spec('protocol'),
      }).then(() => log('  frontend-only project: type-checked')),
      checkServer(root, join(work, 'server'), {
        '@verify-kit/express': spec('express'),
        '@verify-kit/core': spec('core'),
        '@verify-kit/client': spec('client'),
        '@verify-kit/sandbox': spec('sandbox'),
        '@verify-kit/protocol': spec('protocol'),
      }),
      checkHono(root, join(work, 'hono'), {
        '@verify-kit/hono': spec('hono'),
        '@verify-kit/otel': spec('otel'),
        '@verify-kit/core': spec('core'),
        '@verify-kit/client': spec('client'),
        '@verify-kit/sandbox': spec('sandbox'),
        '@verify-kit/protocol': spec('protocol'),
      }),
    ]);
    log(
      `  server project: the example gated a visitor without a verification, then started one: ${status.phase}`,
    );
    log(
      `  hono project: the installed main entries bundle neutral (hono ${hono.modules} modules, otel ${hono.otelModules}); the example gated a visitor, then started one: ${hono.phase}`,
    );
    await nextInstalled;
    log("next project: the Next README's three files: tsc, next build, tsc, next start against the sandbox");
    const next = await checkNext(root, join(work, 'next'));
    log(
      `  next build: ${next.buildSeconds.toFixed(1)} s; the proxy gated a visitor, the route handlers started a session: ${next.phase}`,
    );
    log(`pack check passed in ${elapsed()}`);
  } finally {
    await nextInstalled?.catch(() => {}); // npm still writing there when a check above failed
    await rm(work, { recursive: true, force: true });
  }
}

main().then(
  // Whatever a child left behind (a keep-alive socket, a timer), the check is over.
  () => process.exit(0),
  (error) => {
    process.stderr.write(`pack check failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
