import { RECORD_STORE_METHODS, type RecordStore } from '../bindings/binding-store.js';
import type { LimitRedisClient } from '../limits/rate-limits.js';
import type { StatusBus } from '../status/status-bus.js';
import type { ReplayStore } from '../webhooks/replay-store.js';
import { isFunction } from './option-schemas.js';

/**
 * Every part of the kit's state that several instances must share, in one place: what
 * `createVerifyKit({ store })` takes, e.g. `redisStore({ url })` from `@verify-kit/express/redis`.
 * Each part is named by what it holds; an option given for a part itself (`bindingStore`,
 * `statusBus`, `replayStore`, `sessionLimit.redis`, `sendLink.redis`) takes precedence over the
 * store's. `kit.close()` (and so `kit.shutdown()`) closes the store.
 */
export interface KitStore {
  /** Account bindings, status records and stored decisions (as `bindingStore`): a RecordStore. */
  readonly bindings: RecordStore;
  /** Webhook hints to every instance's long-polls and cached reads (as `statusBus`). */
  readonly statusBus: StatusBus;
  /** The webhook-ids already accepted (as `replayStore`). */
  readonly replayStore: ReplayStore;
  /**
   * Where the counts are kept: the creation limits and the read budget (`sessionLimit.redis`, keys
   * under `limitPrefix`) and send-link's sends (`sendLink.redis`, keys under `sendPrefix`).
   */
  readonly counts: {
    readonly redis: LimitRedisClient;
    readonly limitPrefix: string;
    readonly sendPrefix: string;
  };
  /** For kit.health(): whether every part answers. */
  health?(): boolean | Promise<boolean>;
  /** Closes what the store opened (not a client you gave it). Idempotent. */
  close(): Promise<void>;
}

const hasMethods = (value: unknown, methods: readonly string[]): boolean =>
  typeof value === 'object' &&
  value !== null &&
  methods.every((name) => isFunction((value as Record<string, unknown>)[name]));

/** `store`'s shape, checked by options.ts (no Redis is loaded to check it). */
export function isKitStore(value: unknown): value is KitStore {
  if (!hasMethods(value, ['close'])) return false;
  const { bindings, statusBus, replayStore, counts } = value as Record<string, unknown>;
  const { redis, limitPrefix, sendPrefix } = (counts ?? {}) as Record<string, unknown>;
  return (
    typeof bindings === 'object' &&
    bindings !== null &&
    Object.entries(RECORD_STORE_METHODS).every(([part, methods]) =>
      hasMethods((bindings as Record<string, unknown>)[part], methods),
    ) &&
    hasMethods(statusBus, ['publish', 'subscribe']) &&
    hasMethods(replayStore, ['claim']) &&
    hasMethods(redis, ['eval', 'multi', 'del']) &&
    typeof limitPrefix === 'string' &&
    typeof sendPrefix === 'string'
  );
}

export const KIT_STORE_ERROR = 'must be redisStore(...) from @verify-kit/express/redis';
