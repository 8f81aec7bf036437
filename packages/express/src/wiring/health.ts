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
  /** The binding store: its own health() (the memory store is always 'ok'). */
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
  const [bus, store] = await Promise.all([
    probe(core.options.statusBus as MaybeHealthy | undefined, 'not-shared'),
    probe(core.options.bindingStore, 'ok'),
  ]);
  const draining = core.draining || core.closed;
  return { ok: !draining && bus !== 'down' && store !== 'down', draining, bus, store };
}
