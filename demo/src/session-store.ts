import type { Store } from 'express-session';

export interface SessionStoreHandle {
  /** undefined: express-session's default MemoryStore. */
  store: Store | undefined;
  description: string;
  close(): Promise<void>;
}

/**
 * The default MemoryStore for the demo; with a Redis URL, connect-redis. The redis modules are
 * imported only in that case, so a demo without Redis never loads them.
 */
export async function createSessionStore(redisUrl: string | undefined): Promise<SessionStoreHandle> {
  if (redisUrl === undefined || redisUrl === '') {
    return { store: undefined, description: 'memory', close: async () => {} };
  }
  const [{ createClient }, { RedisStore }] = await Promise.all([import('redis'), import('connect-redis')]);
  const client = createClient({ url: redisUrl });
  client.on('error', (error: Error) => console.error(`demo: redis: ${error.message}`));
  await client.connect();
  return {
    store: new RedisStore({ client, prefix: 'verify-kit-demo:' }),
    description: 'redis',
    close: async () => {
      await client.close();
    },
  };
}
