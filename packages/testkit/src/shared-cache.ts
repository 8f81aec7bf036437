import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './servers.js';
import { findSystemProgram } from './system-programs.js';
import { until } from './until.js';

/** A shared HTTP cache in front of an app, as a CDN or a caching proxy keeps pages for everybody. */
export interface SharedCache {
  url: string;
  stop(): Promise<void>;
}

/**
 * HAProxy with its cache (RFC 9111: it stores what Cache-Control lets a shared cache store, e.g.
 * `s-maxage`, never `private` or `no-store`) in front of `origin` (http://127.0.0.1:<port>), on a
 * port of its own. Every request goes through it with the client's own headers, cookies included.
 */
export async function startSharedCache(origin: string): Promise<SharedCache> {
  const binary = findSystemProgram(
    'haproxy',
    'haproxy',
    'the shared-cache tests put a real HTTP cache in front of the app',
  );
  const { host } = new URL(origin);
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'verify-kit-cache-'));
  const file = path.join(dir, 'haproxy.cfg');
  writeFileSync(
    file,
    `global
    maxconn 256

defaults
    mode http
    timeout connect 2s
    timeout client 30s
    timeout server 30s

cache pages
    total-max-size 16
    max-age 600

frontend www
    bind 127.0.0.1:${port}
    http-request cache-use pages
    http-response cache-store pages
    default_backend app

backend app
    server app ${host}
`,
  );
  execFileSync(binary, ['-c', '-q', '-f', file], { stdio: ['ignore', 'ignore', 'inherit'] });
  const child: ChildProcess = spawn(binary, ['-db', '-f', file], { stdio: ['ignore', 'ignore', 'ignore'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  await until(async () => {
    if (child.exitCode !== null) throw new Error(`haproxy exited with ${child.exitCode}`);
    return fetch(`${url}/`).then(
      () => true,
      () => false,
    );
  }, 'the shared cache listens');
  return {
    url,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
