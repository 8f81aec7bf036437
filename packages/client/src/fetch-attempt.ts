import type { Attempt } from './attempt.js';
import { readBody } from './read-body.js';

export interface FetchAttempts {
  attempt: Attempt;
  /** Refuses later attempts; resolves once the attempts under way have settled. */
  close(): Promise<void>;
}

/** What an attempt throws once closed: a connection error like undici's closed pool's. */
class ClientClosedError extends Error {
  readonly code = 'CLIENT_CLOSED';
  constructor() {
    super('the client is closed');
  }
}

/**
 * Attempts over a WHATWG `fetch` (Web APIs only). fetch has no pool to close, so `close()` keeps
 * the contract of createClient's own pool: no new request after it, the ones under way finish.
 */
export function fetchAttempts(fetchImpl: typeof fetch): FetchAttempts {
  const underWay = new Set<Promise<unknown>>();
  let closed = false;

  const exchange: Attempt = async ({ url, method, headers, body, signal }) => {
    // 'manual': a 3xx is an answer (UPSTREAM_BAD_RESPONSE), as with undici; the key never follows a redirect.
    const response = await fetchImpl(url, { method, headers, body, signal, redirect: 'manual' });
    const read =
      response.body === null ? { text: '', truncated: false } : await readBody(chunks(response.body));
    return { status: response.status, retryAfter: response.headers.get('retry-after') ?? undefined, read };
  };

  return {
    attempt(request) {
      if (closed) return Promise.reject(new ClientClosedError());
      const sent = exchange(request);
      underWay.add(sent);
      sent.then(
        () => underWay.delete(sent),
        () => underWay.delete(sent),
      );
      return sent;
    },
    async close() {
      closed = true;
      await Promise.allSettled(underWay);
    },
  };
}

/** A body stream's chunks through its reader (not every runtime's ReadableStream is async-iterable). */
async function* chunks(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    // Past the cap or on an error: the rest is not read, the connection is dropped.
    reader.cancel().catch(() => {});
  }
}
