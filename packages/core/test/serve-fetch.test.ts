// The Node bridge the Fetch door's tests (and the bench) serve kit.handle with: node:http requests
// become web Requests and Responses are written back, over real sockets on 127.0.0.1.
import {
  Browser,
  type FetchContext,
  fromAddress,
  type Listening,
  serveFetch,
  until,
} from '@verify-kit/testkit';
import { afterEach, describe, expect, it } from 'vitest';

let server: Listening | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(handler: (request: Request, context: FetchContext) => Promise<Response>) {
  server = await serveFetch(handler);
  return new Browser(server.url);
}

describe('serveFetch', () => {
  it('gives the handler the method, the URL from Host, every header, the streamed body and the socket’s address', async () => {
    let seen: Record<string, unknown> = {};
    const browser = await serve(async (request, context) => {
      const body = await request.text();
      seen = {
        method: request.method,
        url: request.url,
        custom: request.headers.get('x-custom'),
        cookie: request.headers.get('cookie'),
        length: body.length,
        last: body.slice(-3),
        clientAddress: context.clientAddress,
        aborted: context.signal.aborted,
      };
      return new Response(null, { status: 204 });
    });
    const body = `${'x'.repeat(1024 * 1024)}end`;
    const res = await browser.fetch('PUT', '/a/b?c=1&c=2', {
      body,
      headers: { 'x-custom': 'yes', cookie: 'a=1; b=2', 'content-type': 'text/plain' },
    });
    expect(res.status).toBe(204);
    expect(seen).toEqual({
      method: 'PUT',
      url: `${server?.url}/a/b?c=1&c=2`,
      custom: 'yes',
      cookie: 'a=1; b=2',
      length: body.length,
      last: 'end',
      clientAddress: '127.0.0.1',
      aborted: false,
    });
    const from = fromAddress('127.0.0.2');
    await new Browser(browser.origin, undefined, { dispatcher: from }).get('/');
    expect(seen.clientAddress).toBe('127.0.0.2');
    await from.close();
  });

  it('writes the status, every header with each Set-Cookie on its own line, and a streamed body', async () => {
    const browser = await serve(async () => {
      const headers = new Headers({ 'content-type': 'text/plain', 'x-one': '1' });
      headers.append('set-cookie', 'a=1; Path=/; HttpOnly');
      headers.append('set-cookie', 'b=2; Path=/; Expires=Thu, 01 Jan 2099 00:00:00 GMT');
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          await new Promise((resolve) => setTimeout(resolve, 5));
          if (sent++ < 3) controller.enqueue(new TextEncoder().encode(`part${sent};`));
          else controller.close();
        },
      });
      return new Response(body, { status: 202, headers });
    });
    const res = await browser.get('/');
    expect(res.status).toBe(202);
    expect(res.headers['x-one']).toBe('1');
    expect(res.headers['set-cookie']).toEqual([
      'a=1; Path=/; HttpOnly',
      'b=2; Path=/; Expires=Thu, 01 Jan 2099 00:00:00 GMT',
    ]);
    expect(res.text).toBe('part1;part2;part3;');
    expect(browser.cookies.names()).toEqual(['a', 'b']);
  });

  it('aborts the signal when the client leaves before its answer, not after it', async () => {
    const signals: AbortSignal[] = [];
    const browser = await serve(async (request, { signal }) => {
      signals.push(signal);
      if (new URL(request.url).pathname === '/fast') return new Response('ok');
      await new Promise((resolve) => signal.addEventListener('abort', resolve));
      return new Response('too late');
    });
    await browser.get('/fast');
    const client = new AbortController();
    const leaving = browser.fetch('GET', '/slow', { signal: client.signal }).catch(() => 'left');
    await until(() => signals.length === 2, 'the slow request arrived');
    client.abort();
    expect(await leaving).toBe('left');
    await until(() => signals[1]?.aborted === true, 'the handler was told');
    expect(signals[0]?.aborted).toBe(false);
  });

  it('a body the handler leaves unread, or cancels, is dropped and the connection keeps serving', async () => {
    const browser = await serve(async (request) => {
      const { pathname } = new URL(request.url);
      if (pathname === '/cancel') await request.body?.getReader().cancel();
      return new Response(pathname, { status: 413 });
    });
    const big = 'x'.repeat(512 * 1024);
    for (const path of ['/unread', '/cancel', '/unread']) {
      const res = await browser.fetch('POST', path, { body: big, headers: { 'content-type': 'text/plain' } });
      expect([res.status, res.text]).toEqual([413, path]);
    }
    expect((await browser.get('/after')).text).toBe('/after');
  });
});
