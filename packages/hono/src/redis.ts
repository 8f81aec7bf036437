// @verify-kit/hono/redis: several instances behind a load balancer, on Node with node-redis
// (@verify-kit/core/redis). Its own entry point, so that the main entry loads neither `redis` nor
// rate-limiter-flexible and runs on Workers, Bun and Deno. Both go in, as createVerifyKit's
// `store` option and its second argument:
//   createVerifyKit({ ..., store: redisStore({ url }) }, { countIn: countInNode })
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
  countInNode,
  createRedisBindingStore,
  createRedisReplayStore,
  createRedisStatusBus,
  DEFAULT_BINDING_PREFIX,
  DEFAULT_REPLAY_PREFIX,
  DEFAULT_STATUS_CHANNEL,
  redisStore,
} from '@verify-kit/core/redis';
