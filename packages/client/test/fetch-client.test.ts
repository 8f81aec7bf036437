// What only the fetch client has: its `fetch` option, the network errors of fetch on other runtimes,
// reading a body stream through its reader, and close() without a pool. The behaviour it shares with
// createClient is tested over both clients in the client-*.test.ts files.
import { describe, expect, it, vi } from 'vitest';
import { createFetchClient, type FetchClientOptions } from '../src/fetch.js';
import { clientWith, failureOf, upstream, useFakeUpstream } from './helpers/client-fixture.js';
import { closedPortUrl, json } from './helpers/fake-upstream.js';
import { API_KEY, IDENTIFICATION_ID, sessionRequest } from './helpers/sample-session.js';

/** A fetch that records each call and answers with `answer` (a runtime's fetch stand-in). */
function recordingFetch(answer: (url: string, init: RequestInit) => Promise<Response>) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    calls.push({ url: String(input), init });
    return answer(String(input), init);
  }) as typeof globalThis.fetch;
  return { fetch, calls };
}

const offline = (options: Partial<FetchClientOptions>) =>
  createFetchClient({
    baseUrl: 'https://idv.example.com',
    apiKey: API_KEY,
    retryBaseMs: 1,
    retryMaxMs: 2,
    ...options,
  });

describe('the fetch option', () => {
  useFakeUpstream(createFetchClient);

  it('sends through the fetch passed in: the key, no redirect following, the deadline signal', async () => {
    const { fetch, calls } = recordingFetch((url, init) => globalThis.fetch(url, init));
    const client = clientWith({ fetch });
    try {
      upstream.answer(json(200, { id: IDENTIFICATION_ID, status: 'APPROVED' }));
      await expect(client.getIdentification(IDENTIFICATION_ID)).resolves.toMatchObject({
        status: 'APPROVED',
      });
      expect(calls).toHaveLength(1);
      expect(calls[0]!.url).toBe(`${upstream.url}/api/v1/identifications/${IDENTIFICATION_ID}`);
      expect(calls[0]!.init).toMatchObject({ method: 'GET', redirect: 'manual' });
      expect(calls[0]!.init.signal).toBeInstanceOf(AbortSignal);
      expect(upstream.requests[0]?.headers['x-api-key']).toBe(API_KEY);
    } finally {
      await client.close();
    }
  });

  it('a refused connection (Node: "fetch failed", cause ECONNREFUSED) never left: a creation is retried too', async () => {
    const { fetch, calls } = recordingFetch((url, init) => globalThis.fetch(url, init));
    const refused = clientWith({ baseUrl: await closedPortUrl(), fetch, retryMaxMs: 2 });
    try {
      const error = await failureOf(refused.createSession(sessionRequest));
      expect(error.code).toBe('UPSTREAM_UNAVAILABLE');
      expect(error.message).toContain('ECONNREFUSED');
      expect(calls).toHaveLength(3);
    } finally {
      await refused.close();
    }
  });

  it('a bare TypeError (the network error of browsers and workers): UPSTREAM_UNAVAILABLE; reads retried, a creation sent once', async () => {
    const { fetch, calls } = recordingFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    const client = offline({ fetch });
    expect(await failureOf(client.getIdentification(IDENTIFICATION_ID))).toMatchObject({
      code: 'UPSTREAM_UNAVAILABLE',
      cause: expect.any(TypeError),
    });
    expect(calls).toHaveLength(3);
    expect((await failureOf(client.createSession(sessionRequest))).code).toBe('UPSTREAM_UNAVAILABLE');
    expect(calls).toHaveLength(4);
  });
});

describe('without a global fetch', () => {
  it('createFetchClient with no fetch option: INVALID_OPTIONS naming fetch', () => {
    vi.stubGlobal('fetch', undefined);
    try {
      expect(() => createFetchClient({ baseUrl: 'https://idv.example.com', apiKey: API_KEY })).toThrow(
        expect.objectContaining({
          code: 'INVALID_OPTIONS',
          details: [expect.objectContaining({ path: 'fetch' })],
        }),
      );
      const { fetch } = recordingFetch(async () => Response.json({ verified: true }));
      expect(() => offline({ fetch })).not.toThrow();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('the body stream', () => {
  it('a body without end is read to the cap, then cancelled: UPSTREAM_BAD_RESPONSE', async () => {
    let pulled = 0;
    let cancelled = false;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 64 * 1024;
        controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
      },
      cancel() {
        cancelled = true;
      },
    });
    const { fetch } = recordingFetch(async () => new Response(endless, { status: 200 }));
    const error = await failureOf(offline({ fetch }).getIdentification(IDENTIFICATION_ID));
    expect(error.code).toBe('UPSTREAM_BAD_RESPONSE');
    expect(error.message).toContain('too large');
    expect(cancelled).toBe(true);
    expect(pulled).toBeLessThan(2 * 1024 * 1024);
  });

  it('an answer without a body (null) reads as empty', async () => {
    const { fetch } = recordingFetch(async () => new Response(null, { status: 503 }));
    expect(
      await failureOf(offline({ fetch, retries: 0 }).getIdentification(IDENTIFICATION_ID)),
    ).toMatchObject({
      code: 'UPSTREAM_UNAVAILABLE',
      status: 503,
      body: undefined,
    });
  });
});

describe('close()', () => {
  it('waits for the calls under way, then refuses new ones without calling fetch', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { fetch, calls } = recordingFetch(async () => {
      await released;
      return Response.json({ id: IDENTIFICATION_ID, status: 'APPROVED' });
    });
    const client = offline({ fetch });
    const underWay = client.getIdentification(IDENTIFICATION_ID);
    let closed = false;
    const closing = client.close().then(() => {
      closed = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(closed).toBe(false);
    release();
    await expect(underWay).resolves.toMatchObject({ status: 'APPROVED' });
    await closing;
    expect(client.close()).toBe(client.close());

    expect(await failureOf(client.getIdentification(IDENTIFICATION_ID))).toMatchObject({
      code: 'UPSTREAM_UNAVAILABLE',
      message: expect.stringContaining('CLIENT_CLOSED'),
    });
    expect(calls).toHaveLength(1);
  });
});
