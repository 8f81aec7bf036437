// What the client tests share: a fresh fake upstream and a client bound to it for every test.
import { inspect } from 'node:util';
import { afterEach, beforeEach } from 'vitest';
import { type ClientOptions, createClient, type VerifyClient, VerifyKitError } from '../../src/index.js';
import { type FakeUpstream, startFakeUpstream } from './fake-upstream.js';
import { API_KEY } from './sample-session.js';

// Live bindings: an importer reads the upstream and client of the test that is running.
export let upstream: FakeUpstream;
export let client: VerifyClient;

/** Starts a fake upstream and a client against it before each test of the calling file, and stops both after. */
export function useFakeUpstream(): void {
  beforeEach(async () => {
    upstream = await startFakeUpstream();
    client = clientWith({ timeoutMs: 2_000, retryBaseMs: 1, retryMaxMs: 5 });
  });

  afterEach(async () => {
    await client.close();
    await upstream.close();
  });
}

/** Another client against the running upstream with these options; the test closes it. */
export function clientWith(options: Partial<ClientOptions>): VerifyClient {
  return createClient({ baseUrl: upstream.url, apiKey: API_KEY, ...options });
}

export async function failureOf(promise: Promise<unknown>): Promise<VerifyKitError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof VerifyKitError)) throw new Error(`expected a VerifyKitError, got ${inspect(error)}`);
  return error;
}
