import { type Dispatcher, Pool } from 'undici';
import { z } from 'zod';
import { type BaseClientOptions, resolveClientOptions } from './client-options.js';
import { undiciAttempt } from './undici-attempt.js';
import { createVerifyClient, type VerifyClient } from './verify-client.js';

export type { RequestOptions, VerifyClient } from './verify-client.js';

export interface ClientOptions extends BaseClientOptions {
  /** An undici Dispatcher (Agent/Pool/MockAgent). Default: a keep-alive Pool of the client's own. */
  dispatcher?: Dispatcher;
}

const DISPATCHER = {
  dispatcher: z
    .custom<Dispatcher>(
      (v) =>
        typeof v === 'object' && v !== null && typeof (v as { dispatch?: unknown }).dispatch === 'function',
      'must be an undici Dispatcher',
    )
    .optional(),
};

/** The Node client, on undici. On any other runtime: createFetchClient (`@verify-kit/client/fetch`). */
export function createClient(options: ClientOptions): VerifyClient {
  const config = resolveClientOptions(options, DISPATCHER, 'createClient');
  const ownPool =
    config.dispatcher === undefined
      ? new Pool(config.origin, {
          connect: { timeout: config.timeoutMs },
          headersTimeout: config.timeoutMs,
          bodyTimeout: config.timeoutMs,
        })
      : undefined;
  const dispatcher: Dispatcher = config.dispatcher ?? ownPool!;
  return createVerifyClient(
    config,
    undiciAttempt(dispatcher, config.timeoutMs),
    () => ownPool?.close() ?? Promise.resolve(),
  );
}
