import { createVerifyKit } from '@verify-kit/core';
import { migrate, pgDriver, sqlStore } from '@verify-kit/core/sql';
import pg from 'pg';
import { accountOf } from './accounts.js';

// #region sql-store
// Your PostgreSQL holds verify-kit's records: which verification is each account's, the last status
// seen, the stored decisions, and the webhook ids already accepted.
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 }); // serverless: max: 1
pool.on('error', (error) => console.error('PostgreSQL dropped an idle connection', error)); // pg asks for it
await migrate(pgDriver(pool)); // creates or upgrades verify-kit's tables, idempotently (a deploy step, or here)

export const store = sqlStore(pgDriver(pool));
export const kit = createVerifyKit({
  baseUrl: process.env.IDV_BASE_URL!,
  apiKey: process.env.IDV_API_KEY!,
  workflowId: 'default',
  webhookSecret: process.env.IDV_WEBHOOK_SECRET,
  basePath: '/identity',
  secret: process.env.VERIFY_KIT_SECRET!,
  accountOf, // your sign-in: the account of a Request
  store,
});

// Reads never answer an expired row; prune() deletes them. Schedule it (here hourly):
setInterval(
  () => store.prune().catch((error) => console.error('verify-kit prune', error)),
  3_600_000,
).unref();

// #endregion sql-store

export { pool };
