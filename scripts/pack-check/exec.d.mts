export interface RunOptions {
  cwd?: string;
  env?: Record<string, string>;
}
/** Runs a command; resolves with its output, rejects with the output when it exits non-zero. */
export function run(command: string, args: string[], options?: RunOptions): Promise<string>;
/** Starts a long-running command and resolves once its output matches `ready`. */
export function start(
  command: string,
  args: string[],
  options: RunOptions & { ready: RegExp; timeoutMs?: number },
): Promise<{ match: RegExpMatchArray; stop: () => void }>;
