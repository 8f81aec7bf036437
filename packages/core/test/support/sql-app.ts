import { capturingLogger, type Listening, serveFetch } from '@verify-kit/testkit';
import pg from 'pg';
import { createVerifyKit, type VerifyKit } from '../../src/index.js';
import type { Logger } from '../../src/shared/log.js';
import { pgDriver, sqlStore } from '../../src/sql.js';
import { appOf, userOf } from './fetch-app.js';

// An integrator's Fetch server with the kit's state in their PostgreSQL (sqlStore over pg's Pool),
// as the SQL tests run it in the test's process and as a child process (fixtures/sql-instance.ts).

export interface SqlInstanceOptions {
  /** The PostgreSQL server's URL and the schema holding verify-kit's tables (migrated before). */
  postgresUrl: string;
  schema: string;
  baseUrl: string;
  apiKey: string;
  webhookSecret: string;
  port?: number;
  logger?: Logger;
  now?: () => number;
  maxAgeMs?: number;
  staleIfErrorMs?: number;
}

export interface SqlInstance {
  url: string;
  kit: VerifyKit;
  server: Listening;
  close(): Promise<void>;
}

export const SECRET = 'sql-store-test-secret-0123456789abcdefghij';

/** One instance: its own pool (on the schema), kit and HTTP server. */
export async function startSqlInstance(options: SqlInstanceOptions): Promise<SqlInstance> {
  const pool = new pg.Pool({
    connectionString: options.postgresUrl,
    max: 5,
    options: `-c search_path=${options.schema}`,
  });
  // An idle connection the server ends (a restart) is an event to ride out, not a crash.
  pool.on('error', () => {});
  const kit = createVerifyKit({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    workflowId: 'default',
    basePath: '/identity',
    secret: SECRET,
    webhookSecret: options.webhookSecret,
    accountOf: userOf,
    store: sqlStore(pgDriver(pool)),
    sessionLimit: false,
    logger: options.logger ?? capturingLogger(),
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(options.maxAgeMs === undefined ? {} : { maxAgeMs: options.maxAgeMs }),
    ...(options.staleIfErrorMs === undefined ? {} : { staleIfErrorMs: options.staleIfErrorMs }),
  });
  const server = await serveFetch(appOf(kit), options.port === undefined ? {} : { port: options.port });
  return {
    url: server.url,
    kit,
    server,
    async close() {
      await kit.close();
      await server.close();
      await pool.end();
    },
  };
}
