// A child process running the integrator's app (app.ts) with the built kit, driven over IPC.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Listening } from '@verify-kit/testkit';
import { type AppConfig, createBenchApp } from './app.js';
import { serveCommands } from './child.js';
import type { Framework } from './peer-apps.js';
import { SHELLS, type Shell } from './shell-apps.js';

let bench: ReturnType<typeof createBenchApp> | undefined;
let server: Server | undefined;
let config: AppConfig | undefined;
const shellApps = new Map<Shell | `peers:${Framework}`, Listening>();

const commands = {
  /**
   * Listens first: the sandbox needs this URL for its webhooks before the kit knows the sandbox.
   * `port`: a given one (an instance behind a load balancer, restarted on its address).
   */
  async listen(options: { port?: number } = {}) {
    server = createServer((req, res) => {
      if (bench) bench.app(req, res);
      else res.writeHead(503).end('not configured yet');
    });
    await new Promise<void>((resolve) => server?.listen(options.port ?? 0, '127.0.0.1', resolve));
    // As behind a load balancer: idle keep-alive sockets outlive any client's, so a client never
    // reuses a socket the server is closing (an ECONNRESET that would not be the kit's).
    server.keepAliveTimeout = 65_000;
    server.headersTimeout = 66_000;
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  },
  configure(given: AppConfig) {
    config = given;
    bench = createBenchApp(given);
  },
  /** The same app on a shell over core's Fetch door (shell-apps.ts), in this process, on a port of its own. */
  async listenShell(shell: Shell) {
    if (config === undefined) throw new Error('configure first');
    const app = shellApps.get(shell) ?? (await SHELLS[shell](config));
    shellApps.set(shell, app);
    return { url: app.url };
  },
  /**
   * verify-kit's gate and its peers' on one server of `framework` (peer-apps.ts, loaded only here),
   * on a port of its own; needs a `redisUrl`. Its URL, and `people` signed-in people of each peer.
   */
  async listenPeers({ framework, people }: { framework: Framework; people: number }) {
    if (config?.redisUrl === undefined) throw new Error('configure with a redisUrl first');
    const { servePeers } = await import('./peer-apps.js');
    const { server, cookies } = await servePeers(framework, { ...config, redisUrl: config.redisUrl }, people);
    await shellApps.get(`peers:${framework}`)?.close();
    shellApps.set(`peers:${framework}`, server);
    return { url: server.url, cookies };
  },
  /** This process's CPU time so far (user + system), µs. */
  cpuMicros() {
    const { user, system } = process.cpuUsage();
    return user + system;
  },
  /** This process's id (src/profile.ts records it with perf). */
  pid: () => process.pid,
  advanceClock: (ms: number) => bench?.advanceClock(ms),
  sessionCount: () => bench?.sessionCount() ?? 0,
  async close() {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await bench?.close();
    for (const app of shellApps.values()) await app.close();
  },
};

export type AppCommands = typeof commands;

serveCommands(commands);

// A rolling deploy stops an instance with SIGTERM: the kit drains it (BENCH_DRAIN_MS), then it exits.
// BENCH_SHUTDOWN=close: the shutdown the express README showed before kit.shutdown(), for comparison.
process.once('SIGTERM', () => {
  const drainMs = Number(process.env.BENCH_DRAIN_MS ?? 0);
  const old = process.env.BENCH_SHUTDOWN === 'close';
  const stop = async (running: Server, app: NonNullable<typeof bench>) => {
    if (!old) return app.close({ server: running, drainMs });
    await app.close();
    running.close();
    running.closeAllConnections();
  };
  const done = server && bench ? stop(server, bench) : Promise.resolve();
  done.then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
