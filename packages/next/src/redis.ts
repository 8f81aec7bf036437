// @verify-kit/next/redis: the pieces for several `next start` instances on one Redis, as
// `@verify-kit/core/redis` has them: `createVerifyKit({ ..., store: redisStore({ url }) })`.
export * from '@verify-kit/core/redis';
