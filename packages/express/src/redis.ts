// @verify-kit/express/redis: the pieces for several instances behind a load balancer, on node-redis
// (@verify-kit/core/redis). Its own entry point, so that the main entry never loads `redis` (an
// optional peer dependency).
export type {
  RedisBindingStore,
  RedisBindingStoreOptions,
  RedisClientLike,
  RedisConnectionOptions,
  RedisKitStore,
  RedisKitStoreOptions,
  RedisReplayStoreOptions,
  RedisStatusBus,
  RedisStatusBusOptions,
} from '@verify-kit/core/redis';
export {
  createRedisBindingStore,
  createRedisReplayStore,
  createRedisStatusBus,
  DEFAULT_BINDING_PREFIX,
  DEFAULT_REPLAY_PREFIX,
  DEFAULT_STATUS_CHANNEL,
  redisStore,
} from '@verify-kit/core/redis';
