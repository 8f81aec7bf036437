// @verify-kit/core/redis (and @verify-kit/express/redis): the pieces for several instances behind a
// load balancer, on node-redis. Its own entry point, so that the main entry never loads `redis` (an
// optional peer dependency) or rate-limiter-flexible, and stays runtime-neutral.

export { countInNode } from './redis/counters.js';
export type { RedisBindingStore, RedisBindingStoreOptions } from './redis/redis-binding-store.js';
export { createRedisBindingStore, DEFAULT_BINDING_PREFIX } from './redis/redis-binding-store.js';
export type { RedisClientLike, RedisConnectionOptions } from './redis/redis-client.js';
export type { RedisReplayStoreOptions } from './redis/redis-replay-store.js';
export { createRedisReplayStore, DEFAULT_REPLAY_PREFIX } from './redis/redis-replay-store.js';
export type { RedisStatusBus, RedisStatusBusOptions } from './redis/redis-status-bus.js';
export { createRedisStatusBus, DEFAULT_STATUS_CHANNEL } from './redis/redis-status-bus.js';
export type { RedisKitStore, RedisKitStoreOptions } from './redis/redis-store.js';
export { redisStore } from './redis/redis-store.js';
