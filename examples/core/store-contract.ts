// #region store-contract
// store.test.ts, beside your app's tests (Vitest): every rule verify-kit expects of a store, run on a
// database like yours (a test database: the rules write rows of their own, which expire).
import { migrate, pgDriver, sqlStore } from '@verify-kit/core/sql';
import { runStoreContract } from '@verify-kit/core/testing';
import pg from 'pg';
import { afterAll } from 'vitest';

const pool = new pg.Pool({ connectionString: process.env.TEST_DATABASE_URL, max: 10 });
pool.on('error', () => {}); // an idle connection the server ends is not the contract's failure
afterAll(() => pool.end());

runStoreContract(async () => {
  await migrate(pgDriver(pool));
  return sqlStore(pgDriver(pool));
});
// #endregion store-contract
