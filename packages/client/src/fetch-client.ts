import { z } from 'zod';
import { type BaseClientOptions, resolveClientOptions } from './client-options.js';
import { ERROR_CODES, VerifyKitError } from './errors.js';
import { fetchAttempts } from './fetch-attempt.js';
import { createVerifyClient, type VerifyClient } from './verify-client.js';

export interface FetchClientOptions extends BaseClientOptions {
  /** The fetch to send with (e.g. one that traces). Default: `globalThis.fetch`. */
  fetch?: typeof fetch;
}

const FETCH = {
  fetch: z.custom<typeof fetch>((v) => typeof v === 'function', 'must be a function (a fetch)').optional(),
};

/** The same client as createClient on Web APIs only (`fetch`): same options, retries and errors. */
export function createFetchClient(options: FetchClientOptions): VerifyClient {
  const config = resolveClientOptions(options, FETCH, 'createFetchClient');
  const { attempt, close } = fetchAttempts(config.fetch ?? globalFetch());
  return createVerifyClient(config, attempt, close);
}

function globalFetch(): typeof fetch {
  if (typeof globalThis.fetch !== 'function') {
    const message = 'is required: this runtime has no global fetch';
    throw new VerifyKitError(
      ERROR_CODES.INVALID_OPTIONS,
      `createFetchClient: invalid options: fetch ${message}`,
      {
        details: [{ path: 'fetch', message }],
      },
    );
  }
  // Looked up at each call, so a fetch instrumented after creation (tracing, test servers) is used.
  return (input, init) => globalThis.fetch(input, init);
}
