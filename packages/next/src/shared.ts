import type { VerifyKit as CoreKit } from '@verify-kit/core';

// One kit per basePath per process, kept on globalThis. `next build` bundles the proxy (middleware)
// apart from the route handlers and pages, so `lib/verify-kit.ts` is evaluated once in each bundle:
// each evaluation's createVerifyKit finds the kit (and its memory store, long-polls, limits) that
// the first one made, and a webhook received by the route handler is seen by the proxy's gate.

/** The kits of this process by basePath (the version in the key: another major keeps its own). */
const KITS = Symbol.for('@verify-kit/next.kits.v1');

export interface SharedKit {
  core: CoreKit;
  /** The options' JSON, functions and class instances left out: another evaluation's must match. */
  fingerprint: string;
  /** The store it was made with: another evaluation's own (unused) one is closed. */
  store: unknown;
}

export function sharedKits(): Map<string, SharedKit> {
  const holder = globalThis as typeof globalThis & { [KITS]?: Map<string, SharedKit> };
  holder[KITS] ??= new Map();
  return holder[KITS];
}

const isPlain = (value: object) => {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null || Array.isArray(value);
};

/**
 * What two evaluations of the same options share: plain values, arrays and plain objects; a function
 * or a class instance (a store, a logger's console) only by its kind, since every bundle makes its own.
 */
export function fingerprintOf(options: object): string {
  return JSON.stringify(options, (_key, value: unknown) => {
    if (typeof value === 'function') return '[function]';
    if (typeof value === 'object' && value !== null && !isPlain(value)) return '[instance]';
    return value;
  });
}
