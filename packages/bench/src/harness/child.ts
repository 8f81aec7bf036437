import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** What a child process answers to; every command takes at most one JSON argument. */
export type Commands = Record<string, (arg: never) => unknown>;

interface Request {
  id: number;
  command: string;
  arg: unknown;
}

type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };

/** A process's memory after a full garbage collection, and the failures that would end a real server. */
export interface ProcessStats {
  rssBytes: number;
  heapUsedBytes: number;
  unhandledRejections: number;
  uncaughtExceptions: number;
}

/**
 * Child side: answers the parent's commands plus `stats` (memory after GC, failures counted, not
 * fatal) and `close` (then exits); exits when the parent goes away.
 */
export function serveCommands(commands: Commands & { close(): Promise<void> | void }): void {
  if (process.send === undefined) throw new Error('this module runs as a child process of the bench');
  let unhandledRejections = 0;
  let uncaughtExceptions = 0;
  process.on('unhandledRejection', (reason) => {
    unhandledRejections++;
    console.error('unhandled rejection:', reason);
  });
  process.on('uncaughtException', (error) => {
    uncaughtExceptions++;
    console.error('uncaught exception:', error);
  });
  process.on('disconnect', () => process.exit(0));
  const builtIn: Commands = {
    async stats(): Promise<ProcessStats> {
      const gc = (globalThis as { gc?: () => void }).gc;
      // Twice: the first pass may only finalize what the second then frees.
      gc?.();
      await new Promise((resolve) => setImmediate(resolve));
      gc?.();
      const { rss, heapUsed } = process.memoryUsage();
      return { rssBytes: rss, heapUsedBytes: heapUsed, unhandledRejections, uncaughtExceptions };
    },
    async close() {
      await commands.close();
      setImmediate(() => process.exit(0));
    },
  };
  process.on('message', (message: Request) => {
    const handler = builtIn[message.command] ?? commands[message.command];
    const reply = (r: Reply) => process.send?.(r);
    Promise.resolve()
      .then(() => {
        if (handler === undefined) throw new Error(`unknown command ${message.command}`);
        return (handler as (arg: unknown) => unknown)(message.arg);
      })
      .then(
        (value) => reply({ id: message.id, ok: true, value: value ?? null }),
        (error: unknown) =>
          reply({ id: message.id, ok: false, error: error instanceof Error ? error.message : String(error) }),
      );
  });
}

type Call<C extends Commands> = <K extends keyof C & string>(
  command: K,
  ...arg: Parameters<C[K]> extends [] ? [] : [Parameters<C[K]>[0]]
) => Promise<Awaited<ReturnType<C[K]>>>;

/** A child process: `call` its commands, `stats()`, `stop()` (asks it to close, then kills it after 10 s), `signal()`. */
export type Child<C extends Commands> = ReturnType<typeof startChild<C>>;

/** Forks a TypeScript module of this package through tsx, with --expose-gc, and talks to it over IPC. */
export interface ChildOptions {
  env?: NodeJS.ProcessEnv;
  /** Run the workspace packages from their TypeScript sources (the `source` export condition), not dist. */
  fromSource?: boolean;
}

export function startChild<C extends Commands>(moduleUrl: URL, options: ChildOptions = {}) {
  const child: ChildProcess = fork(fileURLToPath(moduleUrl), [], {
    // BENCH_CPU_PROF=<dir>: each child writes a .cpuprofile there when it exits (for `node --cpu-prof`).
    execArgv: [
      '--expose-gc',
      '--import',
      import.meta.resolve('tsx'),
      ...(options.fromSource ? ['--conditions=source'] : []),
      ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
    ],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    ...(options.env === undefined ? {} : { env: { ...process.env, ...options.env } }),
  });
  let next = 0;
  let exited: { code: number | null; signal: string | null } | undefined;
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  child.on('message', (reply: Reply) => {
    const p = pending.get(reply.id);
    if (p === undefined) return;
    pending.delete(reply.id);
    if (reply.ok) p.resolve(reply.value);
    else p.reject(new Error(reply.error));
  });
  const gone = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exited = { code, signal };
      for (const p of pending.values()) p.reject(new Error(`child exited (${code ?? signal})`));
      pending.clear();
      resolve();
    });
  });
  const send = (command: string, arg?: unknown): Promise<unknown> => {
    if (exited !== undefined) return Promise.reject(new Error(`child has exited (${command})`));
    const id = ++next;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      child.send({ id, command, arg } satisfies Request, (error) => {
        if (error) {
          pending.delete(id);
          reject(error);
        }
      });
    });
  };
  return {
    call: send as Call<C>,
    stats: () => send('stats') as Promise<ProcessStats>,
    /** undefined while it runs. */
    get exited() {
      return exited;
    },
    /** Sends a signal (SIGKILL: a crash; SIGTERM: a deploy's stop); resolves when it has exited. */
    async signal(signal: NodeJS.Signals) {
      if (exited !== undefined) return;
      child.kill(signal);
      await gone;
    },
    /** Asks it to close, then kills it if it is still there after 10 s. */
    async stop() {
      if (exited !== undefined) return;
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await send('close').catch(() => undefined);
      await gone;
      clearTimeout(timer);
    },
  };
}
