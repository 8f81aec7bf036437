import { withTimeout } from '../shared/with-timeout.js';
import type { KitCore } from './core.js';

type Part = 'ok' | 'down' | 'not-shared';

/** kit.health(): `ok` when everything the kit depends on (besides the upstream) answers. */
export interface KitHealth {
  ok: boolean;
  /** kit.shutdown() has begun: not ready, whatever the parts say (the balancer should take this instance out). */
  draining: boolean;
  /** The status bus: 'not-shared' for the in-memory default (one process), else its health. */
  bus: Part;
  /**
   * The binding store: its own health() (the memory store is always 'ok'); with the `store` option,
   * that store's too (every part of it answers).
   */
  store: Part;
}

interface MaybeHealthy {
  health?(): boolean | Promise<boolean>;
}

async function probe(target: MaybeHealthy | undefined, absent: Part): Promise<Part> {
  if (typeof target?.health !== 'function') return absent;
  try {
    return (await withTimeout(Promise.resolve(target.health()), 2000)) ? 'ok' : 'down';
  } catch {
    return 'down';
  }
}

export async function readHealth(core: KitCore): Promise<KitHealth> {
  const { statusBus, bindingStore, store: kitStore } = core.options;
  const [bus, ...stores] = await Promise.all([
    probe(statusBus as MaybeHealthy | undefined, 'not-shared'),
    // A store's health covers its own binding store: asked once.
    ...(typeof kitStore?.health === 'function' && kitStore.bindings === bindingStore
      ? []
      : [probe(bindingStore, 'ok')]),
    ...(kitStore === undefined ? [] : [probe(kitStore, 'ok')]),
  ]);
  const store: Part = stores.includes('down') ? 'down' : 'ok';
  const draining = core.draining || core.closed;
  return { ok: !draining && bus !== 'down' && store !== 'down', draining, bus, store };
}
