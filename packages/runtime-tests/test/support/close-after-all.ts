import { afterAll } from 'vitest';

/**
 * What a file's `beforeAll` started, closed after its tests whatever happened (a failed start
 * included: register each thing as soon as it runs), last started first. The first failure to close
 * fails the hook, after everything else was closed.
 */
export function closeAfterAll(): (close: () => Promise<void>) => void {
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    const failures: unknown[] = [];
    for (const close of closers.reverse()) await close().catch((error: unknown) => failures.push(error));
    closers.length = 0;
    if (failures.length > 0) throw failures[0];
  });
  return (close) => {
    closers.push(close);
  };
}
