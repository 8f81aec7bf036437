import { type ChildProcess, spawn } from 'node:child_process';

/** An app server in a child process of its own (its own memory: another instance of a fleet). */
export interface InstanceProcess {
  url: string;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** kill -9: the instance dies mid-flight, as a crashed or recycled one does. */
  kill(): void;
  /** SIGTERM, then SIGKILL after 2 s; resolves once it exited. Idempotent. */
  stop(): Promise<void>;
}

const READY = /^listening (http:\/\/\S+)$/m;
/** tsx's loader, found from here (the child's own folder may not see it). */
const TSX = import.meta.resolve('tsx');

/**
 * Runs `entry` (TypeScript, the workspace's sources through the `source` condition) with `env` in a
 * process of its own and resolves once it printed `listening <url>`; rejects with its output when it
 * exits first or takes over `timeoutMs`.
 */
export function startInstanceProcess(
  entry: string,
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<InstanceProcess> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', TSX, entry], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => fail(`did not print its URL within ${timeoutMs} ms`), timeoutMs);
    const fail = (why: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${entry} ${why}:\n${output}`));
    };
    const take = (chunk: Buffer) => {
      output += chunk.toString();
      const ready = READY.exec(output);
      if (ready === null || settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(handleOf(child, ready[1] as string, () => output, exited));
    };
    child.stdout?.on('data', take);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('error', (error) => fail(`could not start: ${error.message}`));
    child.once('exit', (code, signal) => fail(`exited (${signal ?? code}) before it listened`));
  });
}

function handleOf(
  child: ChildProcess,
  url: string,
  output: () => string,
  exited: Promise<void>,
): InstanceProcess {
  let stopping: Promise<void> | undefined;
  return {
    url,
    output,
    kill() {
      child.kill('SIGKILL');
    },
    stop() {
      stopping ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill('SIGTERM');
          const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
          await exited;
          clearTimeout(timer);
        }
      })();
      return stopping;
    },
  };
}

/** The line an instance entry prints once it listens (what startInstanceProcess waits for). */
export function announceListening(url: string): void {
  process.stdout.write(`listening ${url}\n`);
}

/** The kit's options an instance entry reads from its environment (what startInstanceProcess passes). */
export interface InstanceEnv {
  IDV_BASE_URL: string;
  IDV_API_KEY: string;
  IDV_WEBHOOK_SECRET: string;
  VERIFY_KIT_SECRET: string;
  /** The kit's maxAgeMs, when a test shortens it. */
  MAX_AGE_MS?: string;
}

/** The options of an instance's kit, from its environment: every instance of a test alike. */
export function kitOptionsFromEnv(env: NodeJS.ProcessEnv = process.env) {
  const need = (name: keyof InstanceEnv) => {
    const value = env[name];
    if (value === undefined || value === '') throw new Error(`the instance needs ${name}`);
    return value;
  };
  return {
    baseUrl: need('IDV_BASE_URL'),
    apiKey: need('IDV_API_KEY'),
    workflowId: 'default',
    webhookSecret: need('IDV_WEBHOOK_SECRET'),
    secret: need('VERIFY_KIT_SECRET'),
    basePath: '/identity',
    ...(env.MAX_AGE_MS === undefined ? {} : { maxAgeMs: Number(env.MAX_AGE_MS) }),
  };
}
