// What the client tests share: a fresh fake upstream and a client bound to it for every test, made
// by each of the two clients in turn (CLIENTS), so every behaviour is checked over undici and fetch.
import { inspect } from 'node:util';
import { afterEach, beforeEach, describe } from 'vitest';
import { createFetchClient, type FetchClientOptions } from '../../src/fetch.js';
import { type ClientOptions, createClient, type VerifyClient, VerifyKitError } from '../../src/index.js';
import { type FakeUpstream, startFakeUpstream } from './fake-upstream.js';
import { API_KEY } from './sample-session.js';

/** The options of either client; each ignores the other's own option (unknown keys are ignored). */
export type AnyClientOptions = ClientOptions & FetchClientOptions;
export type ClientFactory = (options: AnyClientOptions) => VerifyClient;

export interface ClientKind {
  name: 'undici' | 'fetch';
  create: ClientFactory;
}

/** Both clients, for `describe.each(CLIENTS)('$name', ({ create }) => …)`. */
export const CLIENTS: readonly ClientKind[] = [
  { name: 'undici', create: createClient },
  { name: 'fetch', create: createFetchClient },
];

// Live bindings: an importer reads the upstream and client of the test that is running.
export let upstream: FakeUpstream;
export let client: VerifyClient;
let create: ClientFactory = createClient;

/**
 * Starts a fake upstream and a client (made by `factory`) against it before each test of the
 * calling file or describe block, and stops both after.
 */
export function useFakeUpstream(factory: ClientFactory = createClient): void {
  beforeEach(async () => {
    create = factory;
    upstream = await startFakeUpstream();
    client = clientWith({ timeoutMs: 2_000, retryBaseMs: 1, retryMaxMs: 5 });
  });

  afterEach(async () => {
    await client.close();
    await upstream.close();
  });
}

/**
 * The opening of every client behaviour file: `body`'s tests once per client (`'undici' client > …`,
 * `'fetch' client > …`), each with a fresh fake upstream and a client of that kind (useFakeUpstream).
 */
export function describeEachClient(body: (kind: ClientKind) => void): void {
  describe.each(CLIENTS)('$name client', (kind) => {
    useFakeUpstream(kind.create);
    body(kind);
  });
}

/** Another client of the running test's kind against the running upstream with these options; the test closes it. */
export function clientWith(options: Partial<AnyClientOptions>): VerifyClient {
  return create({ baseUrl: upstream.url, apiKey: API_KEY, ...options });
}

export async function failureOf(promise: Promise<unknown>): Promise<VerifyKitError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof VerifyKitError)) throw new Error(`expected a VerifyKitError, got ${inspect(error)}`);
  return error;
}
