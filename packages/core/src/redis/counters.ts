import { RateLimiterMemory, RateLimiterRedis, RLWrapperTimeouts } from 'rate-limiter-flexible';
import type { Counter, CounterOptions, CountIn } from '../limits/counter.js';
import type { LimitRedisClient } from '../limits/rate-limits.js';

/** A Redis count that takes longer than this is counted in this process instead. */
const REDIS_TIMEOUT_MS = 2000;

/**
 * A limiter counting in Redis (shared by every instance, atomic: one Lua script per count) that
 * counts in this process's memory while Redis is not connected or does not answer within 2 s.
 */
function sharedLimiter(redis: LimitRedisClient, memory: RateLimiterMemory, opts: CounterOptions) {
  const inRedis = new RateLimiterRedis({
    ...opts,
    storeClient: redis,
    useRedisPackage: true,
    // Fail over at once rather than queue behind a reconnecting client.
    rejectIfRedisNotReady: true,
  });
  // The wrapper's insurance alone: a command that fails after its timeout is not counted twice.
  return new RLWrapperTimeouts({ limiter: inRedis, timeoutMs: REDIS_TIMEOUT_MS, insuranceLimiter: memory });
}

/**
 * The limits' counters on Node: rate-limiter-flexible, in this process's memory, or with `redis`
 * in Redis (this process's memory while it does not answer).
 */
export const countInNode: CountIn = (redis, opts): Counter => {
  const memory = new RateLimiterMemory(opts);
  return redis === undefined ? memory : sharedLimiter(redis as LimitRedisClient, memory, opts);
};
