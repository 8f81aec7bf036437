// A child process running the integrator's app (bench-app.ts) with the built kit, over IPC.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type BenchApp, createBenchApp, type KitConfig } from './bench-app.js';
import { memoryNow, serveCommands } from './rpc.js';

let bench: BenchApp | undefined;
let server: Server | undefined;

const commands = {
  async listen(options: { cookieMaxAgeMs?: number }) {
    bench = createBenchApp(options);
    const app = bench.app;
    server = await new Promise<Server>((resolve, reject) => {
      const s = app.listen(0, '127.0.0.1', (error?: Error) => (error ? reject(error) : resolve(s)));
    });
    server.keepAliveTimeout = 60_000;
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  },
  configure(config: KitConfig) {
    bench?.configure(config);
  },
  advanceKitClock(ms: number) {
    bench?.advanceKitClock(ms);
  },
  /** Drops the sessions whose cookie expired (the memory store does it when asked for all). */
  pruneSessions() {
    const store = bench?.store;
    if (store === undefined) return 0;
    return new Promise<number>((resolve, reject) => {
      store.all((error, sessions) => (error ? reject(error) : resolve(Object.keys(sessions ?? {}).length)));
    });
  },
  memory: () => memoryNow(),
  async close() {
    await bench?.close();
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  },
};

export type AppCommands = typeof commands;

serveCommands(commands);
