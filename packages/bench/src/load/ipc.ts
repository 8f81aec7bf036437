import { type ChildProcess, fork } from 'node:child_process';

/** What the parent asks a child process (the kit app or the sandbox). */
export type ParentMessage = { id: number; type: 'stats' } | { id: number; type: 'close' };

type ChildMessage =
  | { type: 'ready'; info: Record<string, unknown> }
  | { id: number; type: 'reply'; result: unknown }
  | { id: number; type: 'failed'; message: string };

/** A process's memory after a full garbage collection, and its failures so far. */
export interface ProcessStats {
  rssBytes: number;
  heapUsedBytes: number;
  heapTotalBytes: number;
  externalBytes: number;
  unhandledRejections: number;
  uncaughtExceptions: number;
  /** Figures of the process's own, e.g. sessions in the store. */
  extra: Record<string, number>;
}

export interface ChildHandlers {
  extraStats?: () => Promise<Record<string, number>>;
  close: () => Promise<void>;
}

/**
 * The child's side: counts unhandled rejections and uncaught exceptions (they would end a real
 * server; here they are counted and reported), answers the parent's requests, exits with it.
 */
export function serveParent(info: Record<string, unknown>, handlers: ChildHandlers): void {
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

  const stats = async (): Promise<ProcessStats> => {
    // First the process's own figures (counting sessions also drops the expired ones), then memory.
    const extra = (await handlers.extraStats?.()) ?? {};
    const gc = (globalThis as { gc?: () => void }).gc;
    // Twice: the first pass may only finalize what the second then frees.
    gc?.();
    await new Promise((resolve) => setImmediate(resolve));
    gc?.();
    const memory = process.memoryUsage();
    return {
      rssBytes: memory.rss,
      heapUsedBytes: memory.heapUsed,
      heapTotalBytes: memory.heapTotal,
      externalBytes: memory.external,
      unhandledRejections,
      uncaughtExceptions,
      extra,
    };
  };

  process.on('message', (message: ParentMessage) => {
    const reply = (result: unknown) => process.send?.({ id: message.id, type: 'reply', result });
    const fail = (error: unknown) =>
      process.send?.({
        id: message.id,
        type: 'failed',
        message: error instanceof Error ? error.message : String(error),
      });
    const run = async () => {
      if (message.type === 'stats') return stats();
      await handlers.close();
      setImmediate(() => process.exit(0));
      return undefined;
    };
    run().then(reply, fail);
  });
  process.send?.({ type: 'ready', info });
}

/** The parent's side of one child process. */
export class ChildHandle<Info> {
  #next = 0;
  readonly #pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  #exit: { code: number | null; signal: string | null } | undefined;

  private constructor(
    readonly name: string,
    private readonly child: ChildProcess,
    readonly info: Info,
  ) {
    child.on('message', (message: ChildMessage) => {
      if (message.type === 'ready') return;
      const pending = this.#pending.get(message.id);
      if (pending === undefined) return;
      this.#pending.delete(message.id);
      if (message.type === 'reply') pending.resolve(message.result);
      else pending.reject(new Error(`${name}: ${message.message}`));
    });
    child.on('exit', (code, signal) => {
      this.#exit = { code, signal };
      for (const pending of this.#pending.values())
        pending.reject(new Error(`${name} exited (${code ?? signal})`));
      this.#pending.clear();
    });
  }

  /** Starts `file` (TypeScript, through tsx) with `config` as its one argument, waits for `ready`. */
  static start<Info>(
    name: string,
    file: URL,
    config: unknown,
    timeoutMs = 60_000,
  ): Promise<ChildHandle<Info>> {
    const child = fork(file, [JSON.stringify(config)], {
      execArgv: ['--import', import.meta.resolve('tsx'), '--expose-gc'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill();
        reject(new Error(`${name} did not start in ${timeoutMs} ms`));
      }, timeoutMs);
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`${name} exited during start (${code})`)));
      child.on('message', (message: ChildMessage) => {
        if (message.type !== 'ready') return;
        clearTimeout(timer);
        resolve(new ChildHandle<Info>(name, child, message.info as Info));
      });
    });
  }

  /** undefined while it runs. */
  get exited(): { code: number | null; signal: string | null } | undefined {
    return this.#exit;
  }

  #ask<T>(message: Omit<ParentMessage, 'id'>): Promise<T> {
    if (this.#exit !== undefined) return Promise.reject(new Error(`${this.name} has exited`));
    const id = ++this.#next;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.child.send({ ...message, id });
    });
  }

  stats(): Promise<ProcessStats> {
    return this.#ask({ type: 'stats' });
  }

  /** Asks it to close; kills it if it has not exited within 10 s. */
  async close(): Promise<void> {
    if (this.#exit !== undefined) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await this.#ask({ type: 'close' }).catch(() => undefined);
    await exited;
    clearTimeout(timer);
  }
}
