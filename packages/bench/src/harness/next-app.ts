import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { run, start } from '../../../../scripts/pack-check/exec.mjs';

// The bench's own Next.js app (packages/bench/next-app): the README's kit with one proxy for two
// pages, /visit gated by kit.requireApproved() and /plain passed on (NextResponse.next()), built with
// `next build` and served with `next start`, as a user deploys it. Next.js bundles the built
// @verify-kit/next (its dist) into the build, so each run builds anew.

const cwd = fileURLToPath(new URL('../../next-app/', import.meta.url));
const next = fileURLToPath(new URL('../../node_modules/next/dist/bin/next', import.meta.url));
const env = { NEXT_TELEMETRY_DISABLED: '1' };

/** `next build` of the app; resolves with the seconds it took. */
export async function buildNextBenchApp(): Promise<number> {
  const started = performance.now();
  await run(process.execPath, [next, 'build'], { cwd, env });
  return (performance.now() - started) / 1000;
}

/**
 * `next start` of the built app on a free port (its own process group: stopping it stops Next's
 * workers too), its kit against `upstream` (the sandbox).
 */
export async function startNextBenchApp(upstream: { url: string; apiKey: string }) {
  const app = await start(process.execPath, [next, 'start', '--port', '0', '--hostname', '127.0.0.1'], {
    cwd,
    ready: /Local:\s+(http:\/\/\S+)[\s\S]*Ready/,
    timeoutMs: 30_000,
    env: {
      ...env,
      NODE_ENV: 'production',
      IDV_BASE_URL: upstream.url,
      IDV_API_KEY: upstream.apiKey,
      VERIFY_KIT_SECRET: randomBytes(32).toString('base64url'),
    },
  });
  // Whatever ends the bench (a timeout, process.exit), `next start` does not outlive it.
  process.once('exit', app.stop);
  return {
    url: app.match[1]!,
    stop() {
      app.stop();
      process.off('exit', app.stop);
    },
  };
}
