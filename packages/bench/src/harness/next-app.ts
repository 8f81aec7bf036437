import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';

// The bench's own Next.js app (packages/bench/next-app): the README's kit with one proxy for two
// pages, /visit gated by kit.requireApproved() and /plain passed on (NextResponse.next()), built with
// `next build` and served with `next start`, as a user deploys it. Next.js bundles the built
// @verify-kit/next (its dist) into the build, so each run builds anew.

const app = fileURLToPath(new URL('../../next-app/', import.meta.url));
const nextBin = fileURLToPath(new URL('../../node_modules/next/dist/bin/next', import.meta.url));

/** `next <args>` in the app, in its own process group (stopping it stops Next's workers too). */
function next(
  args: string[],
  env: Record<string, string> = {},
): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, [nextBin, ...args], {
    cwd: app,
    detached: true,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += String(chunk);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  return { child, output: () => output };
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

/** `next build` of the app; resolves with the seconds it took. */
export async function buildNextBenchApp(): Promise<number> {
  const started = performance.now();
  const build = next(['build']);
  const code = await exited(build.child);
  if (code !== 0) throw new Error(`next build exited ${code}:\n${build.output()}`);
  return (performance.now() - started) / 1000;
}

export interface NextBenchApp {
  url: string;
  stop(): Promise<void>;
}

/** `next start` of the built app on a free port, its kit against `upstream` (the sandbox). */
export async function startNextBenchApp(upstream: { url: string; apiKey: string }): Promise<NextBenchApp> {
  const server = next(['start', '--port', '0', '--hostname', '127.0.0.1'], {
    NODE_ENV: 'production',
    IDV_BASE_URL: upstream.url,
    IDV_API_KEY: upstream.apiKey,
    VERIFY_KIT_SECRET: randomBytes(32).toString('base64url'),
  });
  const pid = server.child.pid;
  const kill = () => {
    if (pid === undefined || server.child.exitCode !== null || server.child.signalCode !== null) return;
    try {
      process.kill(-pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
  };
  // Whatever ends the bench (a timeout, process.exit), `next start` does not outlive it.
  process.once('exit', kill);
  const stop = async () => {
    kill();
    await exited(server.child);
    process.off('exit', kill);
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    const url = /Local:\s+(http:\/\/\S+)[\s\S]*Ready/.exec(server.output())?.[1];
    if (url !== undefined) return { url, stop };
    if (server.child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`next start did not start:\n${server.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
