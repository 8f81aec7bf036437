import { isPerProcessStore, type RecordStore } from '../bindings/binding-store.js';
import { ERROR_CODE, kitError } from '../shared/errors.js';
import { type MultiInstancePlatform, productionFleet } from './platform.js';

/** The shared stores that run on each platform, for the error that asks for one. */
const STORES_THERE: Record<MultiInstancePlatform, string> = {
  Vercel:
    'redisStore({ url }) from @verify-kit/core/redis, or sqlStore(driver) from @verify-kit/core/sql over PostgreSQL',
  'Cloudflare Workers':
    'sqlStore(d1Adapter(env.DB)) from @verify-kit/core/sql (D1), or PostgreSQL through Hyperdrive (node-redis does not run on Workers)',
  'AWS Lambda':
    'redisStore({ url }) from @verify-kit/core/redis, or sqlStore(driver) from @verify-kit/core/sql',
  Netlify:
    'redisStore({ url }) from @verify-kit/core/redis, or sqlStore(driver) from @verify-kit/core/sql over PostgreSQL',
  'Deno Deploy': 'sqlStore(driver) from @verify-kit/core/sql over PostgreSQL (postgres.js)',
};

/**
 * Accounts need a shared store where the platform runs many instances: an account's binding, kept
 * in one instance's memory, would not follow the account to the others (a verified person refused,
 * or sent to verify again, which the service bills). Said at once, naming `store`, never a silent
 * refusal. Anonymous visitors need none (their sealed cookie carries their verification).
 */
export function assertStoreFitsPlatform(accounts: boolean, store: RecordStore): void {
  if (!accounts || !isPerProcessStore(store)) return;
  const platform = productionFleet();
  if (platform === undefined) return;
  throw kitError(
    ERROR_CODE.STORE_REQUIRED,
    `createVerifyKit: accountOf binds each verification to an account, but on ${platform} every instance has its own memory and the kit has no shared store: an account verified on one instance would be refused on the others. Pass store: ${STORES_THERE[platform]}.`,
  );
}
