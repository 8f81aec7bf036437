import { type ChildProcess, spawn } from 'node:child_process';
import { freePort } from './servers.js';
import { findSystemProgram } from './system-programs.js';

export interface RedisServer {
  url: string;
  port: number;
  /** Stops the server (SIGTERM, then SIGKILL); idempotent. */
  stop(): Promise<void>;
}

/** redis-server on PATH, or Debian's /usr/bin/redis-server; a clear error naming the fix otherwise. */
export function findRedisServer(): string {
  return findSystemProgram('redis-server', 'redis-server', 'the multi-instance tests start a real Redis');
}

function waitForReady(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => fail(new Error(`redis-server did not start:\n${output}`)), 10_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      reject(error);
    };
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('error', fail);
    child.once('exit', (code) => fail(new Error(`redis-server exited with ${code}:\n${output}`)));
  });
}

/**
 * A throw-away Redis on 127.0.0.1 and a free port: no persistence unless `dataDir`, killed by stop(). Retries a few
 * ports in the rare case another process took the one found free.
 */
export async function startRedisServer(
  options: {
    requirePass?: string;
    /** e.g. to restart on the port clients know */
    port?: number;
    /** Keep the data here (append-only file, each write synced), so a restart on it loses nothing. */
    dataDir?: string;
  } = {},
): Promise<RedisServer> {
  const binary = findRedisServer();
  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = options.port ?? (await freePort());
    const persistence =
      options.dataDir === undefined
        ? ['--appendonly', 'no']
        : ['--dir', options.dataDir, '--appendonly', 'yes', '--appendfsync', 'always'];
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence];
    if (options.requirePass !== undefined) args.push('--requirepass', options.requirePass);
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      await waitForReady(child);
    } catch (error) {
      lastError = error;
      child.kill('SIGKILL');
      continue;
    }
    child.stdout?.resume();
    child.stderr?.resume();
    let stopped: Promise<void> | undefined;
    const auth = options.requirePass === undefined ? '' : `:${encodeURIComponent(options.requirePass)}@`;
    return {
      url: `redis://${auth}127.0.0.1:${port}`,
      port,
      stop() {
        stopped ??= new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const kill = setTimeout(() => child.kill('SIGKILL'), 2000);
          child.once('exit', () => {
            clearTimeout(kill);
            resolve();
          });
          child.kill('SIGTERM');
        });
        return stopped;
      },
    };
  }
  throw lastError;
}
