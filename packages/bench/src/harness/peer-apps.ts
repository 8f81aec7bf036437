import { randomBytes } from 'node:crypto';
import { getRequestListener } from '@hono/node-server';
import { redisStore } from '@verify-kit/core/redis';
import { createVerifyKit as createExpressKit } from '@verify-kit/express';
import { type Listening, listen, serveFetch } from '@verify-kit/testkit';
import { RedisStore } from 'connect-redis';
import express, { type RequestHandler } from 'express';
import session, { type Store } from 'express-session';
import { createClient } from 'redis';
import { PEER_NAMES, PEERS, type Peer, type PeerName } from '../peers/index.js';
import { type AppConfig, benchKitOptions } from './app.js';
import {
  closingKits,
  fetchDoor,
  handledFetch,
  handledHono,
  honoShell,
  shellKitOptions,
} from './shell-apps.js';

// One server per framework with verify-kit's gate and each peer's in front of the same small answer
// (benches/peers.ts), in the app's process (app-process.ts, listenPeers):
// - `/plain`: the framework's plain route (the baseline);
// - `/visit`, `/identity/*`: verify-kit as its README sets it up, memory store (the default);
// - `/redis/visit`, `/redis/identity/*`: the same with every part of the kit's state in one
//   `redis-server` (`store: redisStore(…)`; on Express the visitors' sessions in connect-redis too);
// - `/authJs`, `/clerk`, `/betterAuth`: each peer's gate as its own integration does it (peers/).

export const FRAMEWORKS = ['hono', 'express', 'fetch'] as const;
export type Framework = (typeof FRAMEWORKS)[number];

/** What the bench needs of a peers' server: where it is, and each peer's signed-in people's cookies. */
export interface PeerServer {
  url: string;
  cookies: Record<PeerName, string[]>;
}

type Peers = Record<PeerName, Peer>;
type RedisConfig = AppConfig & { redisUrl: string };

const redisKitStore = (config: RedisConfig) => redisStore({ url: config.redisUrl });

async function honoPeers(config: RedisConfig, peers: Peers): Promise<Listening> {
  const memory = honoShell(shellKitOptions(config));
  const inRedis = honoShell({
    ...shellKitOptions(config),
    basePath: '/redis/identity',
    store: redisKitStore(config),
  });
  const { app } = memory;
  app.route('/redis', inRedis.app);
  for (const name of PEER_NAMES) app.get(`/${name}`, peers[name].hono, handledHono);
  return closingKits(await listen(getRequestListener(app.fetch)), memory.kit, inRedis.kit);
}

async function fetchPeers(config: RedisConfig, peers: Peers): Promise<Listening> {
  const memory = fetchDoor({ ...shellKitOptions(config), basePath: '/identity' });
  const inRedis = fetchDoor(
    { ...shellKitOptions(config), basePath: '/redis/identity', store: redisKitStore(config) },
    '/redis',
  );
  const peerOf = new Map(PEER_NAMES.map((name) => [`/${name}`, peers[name]]));
  const server = await serveFetch(async (request, context) => {
    const { pathname } = new URL(request.url);
    const peer = peerOf.get(pathname);
    if (peer !== undefined) return (await peer.fetch(request)) ?? handledFetch();
    const door = pathname.startsWith('/redis/') ? inRedis : memory;
    return (await door.answer(request, context, pathname)) ?? new Response('not found', { status: 404 });
  });
  return closingKits(server, memory.kit, inRedis.kit);
}

/**
 * Express: the kit keeps an anonymous visitor's binding in express-session (its README), so the
 * session middleware runs on the kit's routes only, as an integrator with no other use for it mounts
 * it; the plain route and the peers' have none.
 */
async function expressPeers(config: RedisConfig, peers: Peers): Promise<Listening> {
  const ok: RequestHandler = (_req, res) => {
    res.json({ ok: true });
  };
  const sessions = (store?: Store) =>
    session({
      secret: randomBytes(32).toString('hex'),
      resave: false,
      saveUninitialized: false,
      ...(store ? { store } : {}),
      cookie: { httpOnly: true, sameSite: 'lax', maxAge: 30 * 60_000 },
    });
  const client = createClient({ url: config.redisUrl });
  client.on('error', () => {});
  await client.connect();
  const memoryKit = createExpressKit(benchKitOptions(config));
  const redisKit = createExpressKit({ ...benchKitOptions(config), store: redisKitStore(config) });
  const inMemory = sessions();
  const inRedis = sessions(new RedisStore({ client, prefix: 'bench-peers-sess:' }));
  const app = express();
  app.disable('x-powered-by');
  app.get('/plain', ok);
  app.use('/identity', inMemory, memoryKit.router);
  app.get('/visit', inMemory, memoryKit.requireApproved(), ok);
  app.use('/redis/identity', inRedis, redisKit.router);
  app.get('/redis/visit', inRedis, redisKit.requireApproved(), ok);
  for (const name of PEER_NAMES) app.get(`/${name}`, peers[name].express, ok);
  const closeClient = { close: async () => void (await client.close()) };
  return closingKits(await listen(app), memoryKit, redisKit, closeClient);
}

const SERVE = { hono: honoPeers, express: expressPeers, fetch: fetchPeers };

/** The peers' server of `framework`, and `people` signed-in people's cookies of each peer. */
export async function servePeers(framework: Framework, config: RedisConfig, people: number) {
  const peers = Object.fromEntries(PEER_NAMES.map((name) => [name, PEERS[name]()])) as Peers;
  const server = await SERVE[framework](config, peers);
  const cookies = Object.fromEntries(
    await Promise.all(PEER_NAMES.map(async (name) => [name, await peers[name].cookies(people)] as const)),
  ) as Record<PeerName, string[]>;
  return { server, cookies };
}
