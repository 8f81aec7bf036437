import { createMemoryBindingStore, type RecordStore } from '../bindings/binding-store.js';
import { DEFAULT_SEND_PREFIX } from '../creation/send-link.js';
import { DEFAULT_LIMIT_PREFIX, type LimitRedisClient } from '../limits/rate-limits.js';
import type { ReadBudgetSettings } from '../limits/read-budget.js';
import type { StatusBus } from '../status/status-bus.js';
import type { ReplayStore } from '../webhooks/replay-store.js';
import type { KitStore } from './kit-store.js';

export interface CountedIn {
  redis?: LimitRedisClient | undefined;
  prefix?: string | undefined;
}

/** Where one kind of count is kept: the option's own Redis and prefix, else the store's, else memory. */
function countsIn<T extends CountedIn>(
  given: T,
  store: { redis: LimitRedisClient; prefix: string } | undefined,
  defaultPrefix: string,
): T & { prefix: string } {
  if (given.redis !== undefined || store === undefined) {
    return { ...given, prefix: given.prefix ?? defaultPrefix };
  }
  return { ...given, redis: store.redis, prefix: given.prefix ?? store.prefix };
}

/**
 * `store` fills in every shared part it has and that is not given on its own: an option given for a
 * part (`bindingStore`, `statusBus`, `replayStore`, `sessionLimit.redis`, `sendLink.redis`, and
 * `sessionLimit: false`) keeps it, so a kit configured part by part behaves as before. A part neither
 * gives (a SQL store has no status bus and no counters) stays in this process.
 */
export function withStore<
  T extends {
    store?: KitStore | undefined;
    bindingStore?: RecordStore | undefined;
    statusBus?: StatusBus | undefined;
    replayStore?: ReplayStore | undefined;
    sessionLimit: false | (CountedIn & { perClient: number; perIp: number; windowSeconds: number });
    sendLink?: (CountedIn & object) | undefined;
  },
>(options: T) {
  const { store, sessionLimit, sendLink } = options;
  const counts = store?.counts;
  return {
    ...options,
    bindingStore: options.bindingStore ?? store?.bindings ?? createMemoryBindingStore(),
    statusBus: options.statusBus ?? store?.statusBus,
    replayStore: options.replayStore ?? store?.replayStore,
    sessionLimit:
      sessionLimit === false
        ? (false as const)
        : countsIn(
            sessionLimit,
            counts && { redis: counts.redis, prefix: counts.limitPrefix },
            DEFAULT_LIMIT_PREFIX,
          ),
    sendLink:
      sendLink === undefined
        ? undefined
        : countsIn(
            sendLink,
            counts && { redis: counts.redis, prefix: counts.sendPrefix },
            DEFAULT_SEND_PREFIX,
          ),
  };
}

/**
 * The read budget's counts live beside the creation limits' (in their Redis when there is one), or
 * in the store's when the creation limits are the app's own (`sessionLimit: false`).
 */
export function readBudgetOf(options: {
  upstreamReadsPerSecond: number;
  readLimit: { perClient: number; perIp: number; windowSeconds: number };
  sessionLimit: false | { redis?: LimitRedisClient | undefined; prefix: string };
  store?: KitStore | undefined;
}): ReadBudgetSettings {
  const counts = options.store?.counts;
  const limit =
    options.sessionLimit === false
      ? counts && { redis: counts.redis, prefix: counts.limitPrefix }
      : options.sessionLimit;
  return {
    upstreamPerSecond: options.upstreamReadsPerSecond,
    ...options.readLimit,
    redis: limit?.redis,
    prefix: `${limit?.prefix ?? DEFAULT_LIMIT_PREFIX}read:`,
  };
}
