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

export interface Memory {
  rssBytes: number;
  heapUsedBytes: number;
  /** true when a full GC ran just before the reading (the child runs with --expose-gc). */
  afterGc: boolean;
}

/** Memory of this process, after two full collections when gc is exposed. */
export function memoryNow(): Memory {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  return { rssBytes: rss, heapUsedBytes: heapUsed, afterGc: gc !== undefined };
}

/** Child side: answers the parent's commands; exits when the parent goes away. */
export function serveCommands(commands: Commands): void {
  if (process.send === undefined) throw new Error('this module runs as a child process of the bench');
  process.on('message', (message: Request) => {
    const handler = commands[message.command];
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
  process.on('disconnect', () => process.exit(0));
}

export interface Child<C extends Commands> {
  readonly pid: number | undefined;
  call<K extends keyof C & string>(
    command: K,
    ...arg: Parameters<C[K]> extends [] ? [] : [Parameters<C[K]>[0]]
  ): Promise<Awaited<ReturnType<C[K]>>>;
  /** Disconnects (the child exits), then kills it if it is still there after 5 s. */
  stop(): Promise<void>;
}

/** Forks a TypeScript module of this package through tsx, with --expose-gc, and talks to it over IPC. */
export function startChild<C extends Commands>(moduleUrl: URL): Child<C> {
  const tsx = import.meta.resolve('tsx');
  const child: ChildProcess = fork(fileURLToPath(moduleUrl), [], {
    execArgv: ['--expose-gc', '--import', tsx],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let next = 0;
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const failAll = (error: Error) => {
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  };
  child.on('message', (reply: Reply) => {
    const p = pending.get(reply.id);
    if (p === undefined) return;
    pending.delete(reply.id);
    if (reply.ok) p.resolve(reply.value);
    else p.reject(new Error(reply.error));
  });
  child.on('exit', (code, signal) => failAll(new Error(`child exited (${code ?? signal})`)));
  child.on('error', (error) => failAll(error));
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  return {
    pid: child.pid,
    call(command, ...arg) {
      const id = ++next;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
        child.send({ id, command, arg: arg[0] } satisfies Request, (error) => {
          if (error) {
            pending.delete(id);
            reject(error);
          }
        });
      });
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      if (child.connected) child.disconnect();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
