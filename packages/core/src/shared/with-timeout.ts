/**
 * `promise`'s outcome if it settles within `ms`, else what `late` gives (the work may still complete
 * later; its result is then ignored). One promise and one timer.
 */
function within<T, L>(promise: PromiseLike<T>, ms: number, late: () => L | never): Promise<T | L> {
  return new Promise<T | L>((resolve, reject) => {
    const timer = setTimeout(() => {
      try {
        resolve(late());
      } catch (error) {
        reject(error);
      }
    }, ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** Rejects after `ms`: a store call of the gate goes through here on every gated request. */
export function withTimeout<T>(promise: PromiseLike<T>, ms: number): Promise<T> {
  return within(promise, ms, (): never => {
    throw new Error(`no answer within ${ms} ms`);
  });
}

/** `promise`'s value when it settles within `ms`, else undefined. */
export function withinMs<T>(promise: PromiseLike<T>, ms: number): Promise<T | undefined> {
  return within(promise, ms, () => undefined);
}
