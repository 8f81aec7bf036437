import { isPerProcessStore, RECORD_STORE_METHODS, type RecordStore } from '../bindings/binding-store.js';
import type { LimitRedisClient } from '../limits/rate-limits.js';
import type { StatusBus } from '../status/status-bus.js';
import type { ReplayStore } from '../webhooks/replay-store.js';
import { isFunction } from './option-schemas.js';

/**
 * Every part of the kit's state that several instances must share, in one place: what
 * `createVerifyKit({ store })` takes — `redisStore({ url })` (`@verify-kit/core/redis`, also
 * `@verify-kit/express/redis`: every part), `sqlStore(driver)` (`@verify-kit/core/sql`: the
 * records and the webhook ids), or your own. `bindings` is the one part every store has; each other
 * part a store lacks stays in each process unless given on its own, and the kit's startup warning
 * names it (shared-parts.ts). Each part is named by what it holds; an option given for a part itself
 * (`bindingStore`, `statusBus`, `replayStore`, `sessionLimit.redis`, `sendLink.redis`) takes
 * precedence over the store's. `kit.close()` (and so `kit.shutdown()`) closes the store.
 */
export interface KitStore {
  /** Account bindings, status records and stored decisions (as `bindingStore`): a RecordStore shared by every instance. */
  readonly bindings: RecordStore;
  /** Webhook hints to every instance's long-polls and cached reads (as `statusBus`); Redis's store has one. */
  readonly statusBus?: StatusBus | undefined;
  /** The webhook-ids already accepted (as `replayStore`). */
  readonly replayStore?: ReplayStore | undefined;
  /**
   * Where the counts are kept: the creation limits and the read budget (`sessionLimit.redis`, keys
   * under `limitPrefix`) and send-link's sends (`sendLink.redis`, keys under `sendPrefix`); Redis's
   * store has them.
   */
  readonly counts?:
    | {
        readonly redis: LimitRedisClient;
        readonly limitPrefix: string;
        readonly sendPrefix: string;
      }
    | undefined;
  /** For kit.health(): whether every part answers. */
  health?(): boolean | Promise<boolean>;
  /** Closes what the store opened (not a client you gave it). Idempotent. */
  close(): Promise<void>;
}

const hasMethods = (value: unknown, methods: readonly string[]): boolean =>
  typeof value === 'object' &&
  value !== null &&
  methods.every((name) => isFunction((value as Record<string, unknown>)[name]));

export const KIT_STORE_ERROR =
  'must be redisStore(...) from @verify-kit/express/redis (or @verify-kit/core/redis), sqlStore(...) from @verify-kit/core/sql, or a store of your own';

/**
 * What is wrong with `store` (checked by options.ts; no Redis or database is reached to check it),
 * naming the part; undefined when it is a KitStore.
 */
export function kitStoreProblem(value: unknown): string | undefined {
  const shape = `${KIT_STORE_ERROR} ({ bindings, close(), and optionally replayStore, statusBus, counts })`;
  if (!hasMethods(value, ['close'])) return shape;
  const { bindings, statusBus, replayStore, counts } = value as Record<string, unknown>;
  const records = (bindings ?? {}) as Record<string, unknown>;
  const missing = Object.entries(RECORD_STORE_METHODS).flatMap(([part, methods]) =>
    methods.filter((name) => !hasMethods(records[part], [name])).map((name) => `bindings.${part}.${name}`),
  );
  if (typeof bindings !== 'object' || bindings === null || missing.length > 0) {
    return `${shape}: ${missing.join(', ')} missing`;
  }
  if (isPerProcessStore(bindings as RecordStore)) {
    return `${KIT_STORE_ERROR}: its bindings are one process's memory (createMemoryBindingStore), which no other instance sees; leave store out for one instance`;
  }
  if (statusBus !== undefined && !hasMethods(statusBus, ['publish', 'subscribe'])) {
    return `${KIT_STORE_ERROR}: its statusBus must have publish(identificationId, hint) and subscribe(listener)`;
  }
  if (replayStore !== undefined && !hasMethods(replayStore, ['claim'])) {
    return `${KIT_STORE_ERROR}: its replayStore must have claim(id, ttlSeconds)`;
  }
  if (counts !== undefined) {
    const { redis, limitPrefix, sendPrefix } = (counts ?? {}) as Record<string, unknown>;
    if (
      !hasMethods(redis, ['eval', 'multi', 'del']) ||
      typeof limitPrefix !== 'string' ||
      typeof sendPrefix !== 'string'
    ) {
      return `${KIT_STORE_ERROR}: its counts must be { redis: a node-redis v6 client, limitPrefix, sendPrefix }`;
    }
  }
  return undefined;
}
