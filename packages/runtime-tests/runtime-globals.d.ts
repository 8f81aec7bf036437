// The few parts of each runtime's own API that the apps use, as bun-types, Deno's lib.deno.ns and
// @cloudflare/workers-types declare them: enough for tsc to check the apps (tsconfig.json) without
// three sets of globals that contradict one another, the DOM's and Node's. The tests run the apps on
// the real runtimes, so a declaration here that lied would fail there.

interface BunSocketAddress {
  address: string;
  family: 'IPv4' | 'IPv6';
  port: number;
}

interface BunServer {
  readonly hostname: string | undefined;
  readonly port: number | undefined;
  /** The client's address of a request this server received (null for a Unix socket). */
  requestIP(request: Request): BunSocketAddress | null;
}

interface BunServeOptions {
  hostname?: string;
  port?: number;
  /** Seconds a connection may be idle before Bun closes it; default 10, at most 255. */
  idleTimeout?: number;
  fetch(request: Request, server: BunServer): Response | Promise<Response>;
}

declare const Bun: {
  readonly env: Record<string, string | undefined>;
  serve(options: BunServeOptions): BunServer;
};

interface DenoNetAddr {
  transport: 'tcp' | 'udp';
  hostname: string;
  port: number;
}

interface DenoServeHandlerInfo {
  /** The client's address. */
  remoteAddr: DenoNetAddr;
}

interface DenoServeOptions {
  hostname?: string;
  port?: number;
  onListen?(local: DenoNetAddr): void;
}

declare const Deno: {
  readonly env: { get(name: string): string | undefined; toObject(): Record<string, string> };
  serve(
    options: DenoServeOptions,
    handler: (request: Request, info: DenoServeHandlerInfo) => Response | Promise<Response>,
  ): { finished: Promise<void> };
};

/** A Worker's third argument to `fetch`. */
interface ExecutionContext {
  waitUntil(promise: Promise<unknown>): void;
  passThroughOnException(): void;
}
