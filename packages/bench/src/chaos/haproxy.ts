import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sleep } from '../stats.js';

export interface HaproxyLayout {
  /** Where people connect (the site's address). */
  port: number;
  /** HAProxy's own statistics page (`/stats;csv`), for the run's figures. */
  statsPort: number;
  /** The integrator instances, each on 127.0.0.1. */
  servers: { name: string; port: number }[];
}

/**
 * The load balancer the chaos run puts in front of the instances, and the express README's sample:
 * round-robin, no stickiness, health checks on the readiness route (`GET /ready`, 503 from the start
 * of `kit.shutdown()`), a request whose server died before answering retried on another one.
 */
export function haproxyConfig({ port, statsPort, servers }: HaproxyLayout): string {
  return `global
    maxconn 4096${process.env.CHAOS_HAPROXY_LOG ? '\n    log stderr format raw local0' : ''}

defaults
    mode http${process.env.CHAOS_HAPROXY_LOG ? '\n    log global\n    option httplog' : ''}
    option http-keep-alive
    timeout connect 2s
    # above the kit's longest long-poll (maxWaitSeconds 25)
    timeout client 40s
    timeout server 40s
    timeout http-keep-alive 10s
    timeout check 2s
    # a request whose instance died (kill -9) before answering goes to another one; safe for the
    # kit: GET /status is read-only, POST /session answers the verification already bound, and a
    # webhook's replay is refused by its webhook-id (the Redis replay store)
    retries 3
    option redispatch 1
    retry-on conn-failure empty-response response-timeout

frontend www
    bind 127.0.0.1:${port}
    # X-Forwarded-For gets the address HAProxy saw, appended last: the instances trust one hop
    # (trust proxy 1), so the creation limits count each person's own address, whatever it sent
    option forwardfor
    default_backend app

backend app
    # round-robin, no stickiness: sessions, bindings and the status bus are in Redis
    balance roundrobin
    # out of rotation after 2 failed checks 500 ms apart, e.g. once kit.shutdown() has begun
    option httpchk GET /ready
    http-check expect status 200
    default-server inter 500ms fall 2 rise 2
${servers.map((server) => `    server ${server.name} 127.0.0.1:${server.port} check`).join('\n')}

frontend stats
    bind 127.0.0.1:${statsPort}
    stats enable
    stats uri /stats
`;
}

/** Debian's haproxy (`apt-get install haproxy`), or a clear error naming the fix. */
export function findHaproxy(): string {
  const dirs = [
    ...(process.env.PATH ?? '').split(path.delimiter),
    '/usr/sbin',
    '/usr/bin',
    '/usr/local/sbin',
  ];
  for (const dir of dirs) {
    const candidate = path.join(dir, 'haproxy');
    if (dir !== '' && existsSync(candidate)) return candidate;
  }
  throw new Error(
    'haproxy is not installed: the chaos run puts a real HAProxy in front of the instances. Install it with `apt-get install haproxy` (.ci/run does).',
  );
}

/** One server's counters from HAProxy's statistics (CSV). */
export interface ServerStats {
  name: string;
  status: string;
  /** Failed connections to it. */
  econ: number;
  /** Failed responses (a connection reset or closed before the answer). */
  eresp: number;
  /** Retries and redispatches to another server. */
  wretr: number;
  wredis: number;
  srvAbrt: number;
  hrsp5xx: number;
}

export interface Haproxy {
  url: string;
  stats(): Promise<ServerStats[]>;
  /** Resolves once HAProxy counts these servers (all by default) UP. */
  waitUp(names?: string[], timeoutMs?: number): Promise<void>;
  waitDown(name: string, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/** Writes the config to `file`, checks it (`haproxy -c`), runs HAProxy in the foreground. */
export async function startHaproxy(layout: HaproxyLayout, file: string): Promise<Haproxy> {
  const binary = findHaproxy();
  writeFileSync(file, haproxyConfig(layout));
  execFileSync(binary, ['-c', '-q', '-f', file], { stdio: ['ignore', 'ignore', 'inherit'] });
  const child: ChildProcess = spawn(binary, ['-db', '-f', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    if (process.env.CHAOS_HAPROXY_LOG) process.stderr.write(chunk);
    output = (output + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stats = async (): Promise<ServerStats[]> => {
    const res = await fetch(`http://127.0.0.1:${layout.statsPort}/stats;csv`);
    return parseStats(await res.text());
  };
  const waitFor = async (what: string, timeoutMs: number, check: (all: ServerStats[]) => boolean) => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`haproxy exited: ${output}`);
      try {
        if (check(await stats())) return;
      } catch {
        // not listening yet
      }
      await sleep(100);
    }
    throw new Error(`haproxy: ${what} within ${timeoutMs} ms`);
  };
  const names = layout.servers.map((server) => server.name);
  return {
    url: `http://127.0.0.1:${layout.port}`,
    stats,
    waitUp: (of = names, timeoutMs = 15_000) =>
      waitFor(`${of.join(', ')} not UP`, timeoutMs, (all) =>
        of.every((name) => all.find((s) => s.name === name)?.status === 'UP'),
      ),
    waitDown: (name, timeoutMs = 15_000) =>
      waitFor(`${name} not DOWN`, timeoutMs, (all) =>
        (all.find((s) => s.name === name)?.status ?? '').startsWith('DOWN'),
      ),
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

function parseStats(csv: string): ServerStats[] {
  const [header = '', ...rows] = csv.trim().split('\n');
  const columns = header.replace(/^# /, '').split(',');
  const at = (row: string[], name: string) => row[columns.indexOf(name)] ?? '';
  const num = (row: string[], name: string) => Number(at(row, name)) || 0;
  return rows
    .map((line) => line.split(','))
    .filter(
      (row) =>
        at(row, 'pxname') === 'app' && at(row, 'svname') !== 'BACKEND' && at(row, 'svname') !== 'FRONTEND',
    )
    .map((row) => ({
      name: at(row, 'svname'),
      status: at(row, 'status'),
      econ: num(row, 'econ'),
      eresp: num(row, 'eresp'),
      wretr: num(row, 'wretr'),
      wredis: num(row, 'wredis'),
      srvAbrt: num(row, 'srv_abrt'),
      hrsp5xx: num(row, 'hrsp_5xx'),
    }));
}
