import { RedisStore } from 'connect-redis';
import type { SessionData } from 'express-session';

// biome-ignore lint/suspicious/noExplicitAny: express-session's and connect-redis's own callback type
type Callback = (err?: any, data?: any) => void;
/** What is waited for of the client: node-redis's readiness and its `ready` event. */
interface Client {
  readonly isReady: boolean;
  on(event: 'ready', listener: () => void): unknown;
  off(event: 'ready', listener: () => void): unknown;
}

/** The most a session call waits for Redis to come back, as the kit's own Redis calls wait. */
const PATIENCE_MS = 2000;

/** Resolves once `client` is connected again, or after PATIENCE_MS (the retry then fails as it would). */
function backOrLate(client: Client): Promise<void> {
  if (client.isReady) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      client.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, PATIENCE_MS);
    client.on('ready', done);
  });
}

/**
 * connect-redis with the patience an app in production gives its session store, and the kit gives
 * its own Redis calls: a session read or write that met a Redis restart mid-command ("Socket closed
 * unexpectedly") is tried once more when the client is back, within 2 s. Without it a restart shows
 * a person a 500 of the app's session middleware, which the chaos run would count as the kit's.
 */
export class PatientRedisStore extends RedisStore {
  constructor(
    options: ConstructorParameters<typeof RedisStore>[0],
    private readonly redis: Client,
  ) {
    super(options);
  }

  override get(sid: string, cb?: Callback) {
    return this.#again((done) => super.get(sid, done), cb);
  }

  override set(sid: string, session: SessionData, cb?: Callback) {
    return this.#again((done) => super.set(sid, session, done), cb);
  }

  override touch(sid: string, session: SessionData, cb?: Callback) {
    return this.#again((done) => super.touch(sid, session, done), cb);
  }

  override destroy(sid: string, cb?: Callback) {
    return this.#again((done) => super.destroy(sid, done), cb);
  }

  async #again(call: (done: Callback) => Promise<unknown>, cb: Callback | undefined): Promise<unknown> {
    const [error, data] = await new Promise<[unknown, unknown]>((resolve) => {
      void call((err, value) => resolve([err, value]));
    });
    if (!error) return cb?.(null, data);
    await backOrLate(this.redis);
    return call(cb ?? (() => {}));
  }
}
