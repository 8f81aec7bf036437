import { type PostgresServer, startPostgresServer } from '@verify-kit/testkit';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';

/** A pool on `schema` of the server (created when missing): each test file's tables apart. */
export function poolOn(server: PostgresServer, schema: string, max = 10): pg.Pool {
  const pool = new pg.Pool({ connectionString: server.url, max, options: `-c search_path=${schema}` });
  // An idle connection the server ends (a restart) is an event, not a crash of the test run.
  pool.on('error', () => {});
  return pool;
}

/** A real PostgreSQL for the tests of one file: started before them, stopped after. */
export function usePostgres(): { server: PostgresServer; schema(name: string): Promise<void> } {
  const context = {} as { server: PostgresServer; schema(name: string): Promise<void> };
  let admin: pg.Pool | undefined;
  beforeAll(async () => {
    context.server = await startPostgresServer();
    admin = new pg.Pool({ connectionString: context.server.url, max: 2 });
    admin.on('error', () => {});
  });
  context.schema = async (name) => {
    await admin?.query(`CREATE SCHEMA IF NOT EXISTS ${name}`);
  };
  afterAll(async () => {
    await admin?.end();
    await context.server?.stop();
  });
  return context;
}
