import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import { Browser } from '@verify-kit/testkit';
import type { Hono } from 'hono';
import { Agent, type Dispatcher } from 'undici';

export interface Served {
  url: string;
  /** A new browser (its own cookie jar); `dispatcher` for another source address. */
  browser(dispatcher?: Dispatcher): Browser;
  /** A new browser whose connections come from `localAddress` (any of 127.0.0.0/8 reaches 127.0.0.1). */
  browserFrom(localAddress: string): Browser;
  close(): Promise<void>;
}

/** A Hono app served by @hono/node-server on 127.0.0.1, a free port: as a user runs it on Node. */
export async function serveApp(app: { fetch: Hono['fetch'] }): Promise<Served> {
  const agents: Agent[] = [];
  const server: ServerType = await new Promise((resolve) => {
    const started = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started));
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    browser: (dispatcher) => new Browser(url, undefined, dispatcher === undefined ? {} : { dispatcher }),
    browserFrom(localAddress) {
      const agent = new Agent({ localAddress });
      agents.push(agent);
      return new Browser(url, undefined, { dispatcher: agent });
    },
    async close() {
      await Promise.all(agents.map((agent) => agent.close()));
      if ('closeAllConnections' in server) server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
