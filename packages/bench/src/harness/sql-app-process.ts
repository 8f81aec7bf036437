// A child process (benches/sql.ts) running core's Fetch door twice on Node, the same app on two
// ports: one with its state in PostgreSQL (sqlStore over pg's Pool, ten connections), one in memory
// (the default). Each serves `/plain`, `/visit` (the default gate), the kit's `/identity/*`, and a
// test sign-in, `POST /sign-in` (a new account in a `user` cookie, which accountOf reads).
import { randomUUID } from 'node:crypto';
import { readCookie } from '@verify-kit/core';
import { migrate, pgDriver, type SqlStore, sqlStore } from '@verify-kit/core/sql';
import { type Listening, serveFetch } from '@verify-kit/testkit';
import pg from 'pg';
import type { AppConfig } from './app.js';
import { serveCommands } from './child.js';
import { closingKits, fetchDoor, shellKitOptions } from './shell-apps.js';

let pool: pg.Pool | undefined;
const servers: Listening[] = [];

/** The account the test sign-in put in the `user` cookie (the Fetch door hands accountOf the Request). */
const accountOf = (request: unknown) => readCookie((request as Request).headers, 'user', { secure: false });

function signIn(): Response {
  const userId = randomUUID();
  return Response.json(
    { userId },
    { status: 201, headers: { 'set-cookie': `user=${userId}; Path=/; HttpOnly` } },
  );
}

async function serveDoor(config: AppConfig, store?: SqlStore): Promise<Listening> {
  const door = fetchDoor({
    ...shellKitOptions(config),
    basePath: '/identity',
    accountOf,
    ...(store ? { store } : {}),
  });
  const server = await serveFetch(async (request, context) => {
    const { pathname } = new URL(request.url);
    if (pathname === '/sign-in' && request.method === 'POST') return signIn();
    return (await door.answer(request, context, pathname)) ?? new Response('not found', { status: 404 });
  });
  return closingKits(server, door.kit);
}

const commands = {
  /** Migrates the database at `postgresUrl`, then serves both apps; their URLs. */
  async start({ config, postgresUrl }: { config: AppConfig; postgresUrl: string }) {
    pool = new pg.Pool({ connectionString: postgresUrl, max: 10 });
    pool.on('error', () => {});
    await migrate(pgDriver(pool));
    const store = sqlStore(pgDriver(pool));
    await store.ready();
    const [sql, memory] = [await serveDoor(config, store), await serveDoor(config)];
    servers.push(sql, memory);
    return { sqlUrl: sql.url, memoryUrl: memory.url };
  },
  /** This process's CPU time so far (user + system), µs. */
  cpuMicros() {
    const { user, system } = process.cpuUsage();
    return user + system;
  },
  async close() {
    for (const server of servers) await server.close();
    await pool?.end();
  },
};

export type SqlAppCommands = typeof commands;

serveCommands(commands);
