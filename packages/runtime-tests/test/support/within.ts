/**
 * `promise`, or a rejection naming `what` if it has not settled after `ms`: a bound on a failure (an
 * answer that never comes), never a wait a passing run makes.
 */
export function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
