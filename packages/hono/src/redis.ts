// @verify-kit/hono/redis: several instances behind a load balancer, on Node with node-redis: all of
// @verify-kit/core/redis, its Redis pieces and countInNode, as @verify-kit/next/redis has them. Its
// own entry point, so that the main entry loads neither `redis` nor rate-limiter-flexible and runs on
// Workers, Bun and Deno. Both go in, as createVerifyKit's `store` option and its second argument:
//   createVerifyKit({ ..., store: redisStore({ url }) }, { countIn: countInNode })
export * from '@verify-kit/core/redis';
