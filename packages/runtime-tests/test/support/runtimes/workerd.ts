import { dirname } from 'node:path';
import type { Readable } from 'node:stream';
import type { Miniflare as MiniflareType } from 'miniflare';
import type { AppInstance, PreparedApp, Runtime } from '../app-instance.js';
import { bundleApp } from '../bundle.js';
import { LogLines } from '../log-lines.js';
import { appEntry } from './paths.js';

// workerd through Miniflare, as Cloudflare's tools run a Worker locally: the Worker bundled as
// wrangler bundles it (the `workerd`, `worker` and `browser` conditions) and given its bindings, with
// no `nodejs_compat` (a Worker that needs Node's APIs fails here, as the README's must not). Each
// instance is its own Miniflare, so its own workerd process and its own memory. Miniflare sets
// cf-connecting-ip to the connection's address, as Cloudflare does.

/** Not later than the workerd release Miniflare brings (its version is its date). */
export const COMPATIBILITY_DATE = '2026-04-01';

type MiniflareClass = typeof MiniflareType;

/** Miniflare, or an error naming the fix (its workerd binary comes from an optional dependency). */
async function loadMiniflare(): Promise<MiniflareClass> {
  try {
    return (await import('miniflare')).Miniflare;
  } catch (error) {
    const why = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new Error(
      `workerd: Miniflare could not be loaded (${why}). To fix: run \`pnpm install\` at the repository root so pnpm installs miniflare and workerd's binary for ${process.platform}-${process.arch} (@cloudflare/workerd-*, an optional dependency of workerd: not with --no-optional).`,
    );
  }
}

/** Starts one Worker from its bundled `script`; resolves once workerd listens. */
async function startWorker(
  Miniflare: MiniflareClass,
  name: string,
  script: string,
  bindings: Record<string, string>,
): Promise<AppInstance> {
  const logs = new LogLines();
  const mf = new Miniflare({
    name,
    modules: true,
    scriptPath: script,
    modulesRoot: dirname(script),
    compatibilityDate: COMPATIBILITY_DATE,
    bindings,
    host: '127.0.0.1',
    port: 0,
    cf: false,
    handleRuntimeStdio(stdout: Readable, stderr: Readable) {
      logs.follow(stdout);
      logs.follow(stderr);
    },
  });
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= mf.dispose().finally(() => logs.end('was stopped'));
    return closing;
  };
  try {
    const url = await mf.ready;
    return { url: url.origin, logs, close };
  } catch (error) {
    await close().catch(() => {});
    throw new Error(
      `workerd ${name}: ${error instanceof Error ? error.message : String(error)}\n${logs.tail()}`,
    );
  }
}

/** A Worker module (`export default { fetch(request, env, ctx) }`), bundled once for every instance. */
export async function prepareWorker(entry: string, name: string): Promise<PreparedApp> {
  const Miniflare = await loadMiniflare();
  const bundle = await bundleApp(entry, ['workerd', 'worker', 'browser']);
  return {
    launch: (env) => startWorker(Miniflare, name, bundle.path, { ...env }),
    dispose: () => bundle.remove(),
  };
}

export const workerd: Runtime = {
  name: 'workerd',
  prepare: (app) => prepareWorker(appEntry('workerd', app), app),
};
