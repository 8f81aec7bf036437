import type { Server } from 'node:http';
import type { KitCore } from '@verify-kit/core/internal/wiring/core';
import { invalidOptions } from '@verify-kit/core/internal/wiring/options';
import { z } from 'zod';

export interface ShutdownOptions {
  /**
   * The HTTP(S) server the app listens on (what `app.listen()` returns). With it, every response
   * from the start of the drain carries `Connection: close`, and the server closes after the drain.
   */
  server?: Server;
  /**
   * How long the instance goes on serving, not ready, before it closes (ms): longer than the load
   * balancer needs to see the readiness probe fail and take it out. Default 5000.
   */
  drainMs?: number;
  /** After the drain, how long requests still in flight may take before their connections are destroyed (ms). Default 10000. */
  closeTimeoutMs?: number;
}

const ms = (max: number) =>
  z
    .int({ error: 'must be an integer number of milliseconds' })
    .min(0, { error: 'must be 0 or more' })
    .max(max, { error: `must be at most ${max} milliseconds` });

const ShutdownOptionsSchema = z.strictObject({
  server: z
    .custom<Server>(
      (value) =>
        typeof value === 'object' &&
        value !== null &&
        typeof (value as Server).close === 'function' &&
        typeof (value as Server).prependListener === 'function',
      { error: 'must be the HTTP server the app listens on (what app.listen() returns)' },
    )
    .optional(),
  drainMs: ms(600_000).default(5000),
  closeTimeoutMs: ms(600_000).default(10_000),
});

export function parseShutdownOptions(input: unknown) {
  const parsed = ShutdownOptionsSchema.safeParse(input ?? {});
  if (!parsed.success) {
    throw invalidOptions('kit.shutdown', parsed.error, Object.keys(ShutdownOptionsSchema.shape));
  }
  return parsed.data;
}

const closeConnection = (_req: unknown, res: { setHeader(name: string, value: string): unknown }) => {
  res.setHeader('Connection', 'close');
};

/**
 * A rolling deploy's shutdown: not ready at once (kit.health(), so the balancer's probe fails), still
 * serving through the drain with `Connection: close` on every response (clients reconnect elsewhere
 * rather than reuse a socket about to go), then the server stops accepting, open long-polls are
 * answered with what they know, and the requests in flight finish.
 */
export async function shutdown(
  core: KitCore,
  options: ReturnType<typeof parseShutdownOptions>,
): Promise<void> {
  const { server, drainMs, closeTimeoutMs } = options;
  core.startDraining();
  server?.prependListener('request', closeConnection);
  await new Promise((resolve) => setTimeout(resolve, drainMs));
  const closed = server === undefined ? undefined : closeServer(server, closeTimeoutMs);
  await core.close();
  await closed;
}

/** Stops accepting and closes idle connections; destroys what is still open after `timeoutMs`. */
function closeServer(server: Server, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    const force = setTimeout(() => server.closeAllConnections(), timeoutMs);
    force.unref();
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
  });
}
