/** A value now, or a promise of it where something answers asynchronously (a shared store, accountOf). */
export type Maybe<T> = T | Promise<T>;

export const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof (value as { then?: unknown } | null | undefined)?.then === 'function';

/**
 * `next(value)` at once when `value` is there, else once it resolves (not named `then`: a module
 * exporting `then` is itself thenable, and `await import()` of it would call it): a step that answers at once
 * (the memory store, a visit's stored decision) costs no step of waiting.
 */
export function andThen<T, R>(value: Maybe<T>, next: (value: T) => Maybe<R>): Maybe<R> {
  return isThenable(value) ? (value as Promise<T>).then(next) : next(value as T);
}
