// Moved sessions die (issue 26, finding 4): the kit moves an anonymous visitor's session to a new id
// when it binds a verification and at the first approval. Whoever holds an earlier id (planted,
// logged, left in another tab) must not stay signed in as the person, neither right after the move
// nor after the person signs out. With express-session's MemoryStore and with connect-redis on a
// real redis-server, over real HTTP against the real sandbox.
import { Browser } from '@verify-kit/testkit';
import { RedisStore } from 'connect-redis';
import { createClient } from 'redis';
import { describe, expect, it } from 'vitest';
import type { SessionResponseBody } from '../src/index.js';
import { type AppSetup, startApp, type TestApp } from './support/app.js';
import { approveInSandbox, useRedisAndSandbox } from './support/fixtures.js';

const API_KEY = 'sk_test_session_move_8e21';
const SESSION_COOKIE = 'connect.sid';
const env = useRedisAndSandbox(API_KEY);

/** The store's id in express-session's signed cookie value (`s:<id>.<signature>`). */
function storedId(cookie: string): string {
  const value = decodeURIComponent(cookie);
  return value.slice(2, value.lastIndexOf('.'));
}

/** What a browser holding only `sessionId` (no binding secret) gets: who it is, and the gate's answer. */
async function asHolderOf(app: TestApp, sessionId: string) {
  const holder = new Browser(app.url);
  holder.cookies.set(SESSION_COOKIE, sessionId);
  const whoami = await holder.get<{ user: string | null }>('/whoami');
  return { user: whoami.json.user, gate: (await holder.get('/api/data')).status };
}

/** Signs in with the app's own sign-in, verifies anonymously (two moves), signs out; checks every old id. */
async function walk(setup: AppSetup = {}) {
  const app = await startApp({ baseUrl: env.sandbox.url, apiKey: API_KEY }, setup);
  try {
    const person = app.browser();
    await person.post('/login?user=ada');
    const ids = [person.cookies.get(SESSION_COOKIE)!];
    const started = await person.post<SessionResponseBody>('/identity/session');
    expect(started.status).toBe(201);
    ids.push(person.cookies.get(SESSION_COOKIE)!);
    await approveInSandbox(env.sandbox, started.json.sessionCode);
    expect((await person.get('/api/data')).status).toBe(200);
    ids.push(person.cookies.get(SESSION_COOKIE)!);
    expect(new Set(ids).size).toBe(3);
    // The person keeps their sign-in across both moves.
    expect((await person.get<{ user: string | null }>('/whoami')).json.user).toBe('ada');

    // Right after the moves, the two earlier ids hold nothing.
    for (const id of ids.slice(0, 2)) expect(await asHolderOf(app, id)).toEqual({ user: null, gate: 403 });

    await person.post('/logout');
    expect((await person.get<{ user: string | null }>('/whoami')).json.user).toBeNull();
    for (const id of ids) expect(await asHolderOf(app, id)).toEqual({ user: null, gate: 403 });
    return ids.map(storedId);
  } finally {
    await app.close();
  }
}

describe('an id the session moved away from is destroyed', () => {
  it('express-session’s MemoryStore: no earlier id is signed in after the moves or after sign-out', async () => {
    await walk();
  });

  it('connect-redis on a real redis-server: the same, and the old ids’ keys are gone', async () => {
    const client = createClient({ url: env.redis.url });
    client.on('error', () => {});
    await client.connect();
    const prefix = 'verify-kit-test:move:';
    try {
      const ids = await walk({ sessionStore: new RedisStore({ client, prefix }) });
      // Signed out: not one session the walk moved away from is left in Redis.
      for (const id of ids) expect(await client.exists(`${prefix}${id}`)).toBe(0);
    } finally {
      await client.close();
    }
  });
});
