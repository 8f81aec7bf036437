interface Waiter {
  /** Looks at the lines again; true once it has settled. */
  check(): boolean;
  fail(error: Error): void;
}

/**
 * What an app printed, line by line (stdout and stderr interleaved as they arrived), and a way to wait
 * for a line: the suite waits on what the app says (it listens, a long-poll is held), never on time.
 */
export class LogLines {
  readonly lines: string[] = [];
  #ended: string | undefined;
  readonly #waiters = new Set<Waiter>();

  /** One stream's output (stdout, stderr): its lines are kept whole, however it is chunked. */
  follow(stream: NodeJS.ReadableStream): void {
    let partial = '';
    stream.on('data', (chunk: Buffer | string) => {
      const parts = (partial + String(chunk)).split(/\r?\n/);
      partial = parts.pop() ?? '';
      this.push(...parts);
    });
    stream.on('end', () => {
      if (partial !== '') this.push(partial);
      partial = '';
    });
  }

  push(...lines: string[]): void {
    if (lines.length === 0) return;
    this.lines.push(...lines);
    for (const waiter of [...this.#waiters]) if (waiter.check()) this.#waiters.delete(waiter);
  }

  /** The app is gone (`why`: how it ended): every wait still pending fails, and any later one. */
  end(why: string): void {
    this.#ended ??= why;
    for (const waiter of [...this.#waiters]) waiter.fail(this.#endedError());
    this.#waiters.clear();
  }

  /** Where the next line will be: give it to `waitFor` to see only what comes after. */
  mark(): number {
    return this.lines.length;
  }

  /** The last lines, for an error message. */
  tail(count = 40): string {
    const shown = this.lines.slice(-count);
    return shown.length === 0 ? '  (nothing printed)' : shown.map((line) => `  | ${line}`).join('\n');
  }

  /**
   * Resolves with the first line from `from` on that matches `pattern`; rejects when the app ends
   * first, or after `timeoutMs` (a bound for a failure's message: a passing run never waits for it).
   */
  waitFor(pattern: RegExp, from = 0, timeoutMs = 10_000): Promise<RegExpExecArray> {
    return new Promise((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const waiter: Waiter = {
        check: () => {
          for (let at = from; at < this.lines.length; at++) {
            const match = pattern.exec(this.lines[at] ?? '');
            if (match === null) continue;
            clearTimeout(timer);
            resolve(match);
            return true;
          }
          return false;
        },
        fail: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      if (waiter.check()) return;
      if (this.#ended !== undefined) {
        reject(this.#endedError(pattern));
        return;
      }
      timer = setTimeout(() => {
        this.#waiters.delete(waiter);
        reject(
          new Error(`no line matching ${pattern} within ${timeoutMs} ms; the last lines:\n${this.tail()}`),
        );
      }, timeoutMs);
      this.#waiters.add(waiter);
    });
  }

  #endedError(pattern?: RegExp): Error {
    const what = pattern === undefined ? '' : ` before a line matching ${pattern}`;
    return new Error(`the app ${this.#ended}${what}; the last lines:\n${this.tail()}`);
  }
}
