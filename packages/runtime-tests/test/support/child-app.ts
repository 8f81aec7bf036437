import { type ChildProcess, spawn } from 'node:child_process';
import type { AppInstance } from './app-instance.js';
import { LogLines } from './log-lines.js';

// An app in a child process (Bun, Deno): started with its configuration in the environment and
// PORT=0, it prints `listening on <url>` once the runtime has its port, which is when it counts as
// started. The process is killed by close(), and by this process's exit whatever happened before.

const LISTENING = /^listening on (http:\/\/127\.0\.0\.1:\d+)\/?$/;
/** A start that takes longer has failed (a cold start of any of the runtimes takes under 2 s here). */
const START_TIMEOUT_MS = 20_000;
/** After SIGTERM: then SIGKILL. */
const KILL_AFTER_MS = 2_000;

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export interface ChildCommand {
  /** Names the app in errors, e.g. `bun fetch-door`. */
  name: string;
  command: string;
  args: readonly string[];
  env: Record<string, string>;
  cwd: string;
}

/** Only what a runtime needs from this environment: no Node or Vitest settings leak into the app. */
export function baseEnv(): Record<string, string> {
  const env: Record<string, string> = { NO_COLOR: '1' };
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG']) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

export async function startChild({ name, command, args, env, cwd }: ChildCommand): Promise<AppInstance> {
  const logs = new LogLines();
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  const exited = new Promise<void>((resolve) => {
    const ended = (why: string) => {
      running.delete(child);
      logs.end(why);
      resolve();
    };
    child.once('exit', (code, signal) =>
      ended(signal === null ? `exited with code ${code}` : `was killed (${signal})`),
    );
    child.once('error', (error) => ended(`could not be started (${command}): ${error.message}`));
  });
  logs.follow(child.stdout);
  logs.follow(child.stderr);

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), KILL_AFTER_MS);
        await exited;
        clearTimeout(timer);
      }
    })();
    return closing;
  };

  try {
    const [, url = ''] = await logs.waitFor(LISTENING, 0, START_TIMEOUT_MS);
    return { url, logs, close };
  } catch (error) {
    await close();
    throw new Error(`${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
