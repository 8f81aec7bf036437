import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateWebhookSecret } from '@verify-kit/client';
import { DELIVERY_LEASE_MS } from '@verify-kit/core/internal/status/event-delivery';
import { createSandboxControl, type SandboxControl } from '@verify-kit/sandbox/control';
import { freePort, type RedisServer, startRedisServer } from '@verify-kit/testkit';
import { createClient } from 'redis';
import { Agent } from 'undici';
import { startChild } from '../harness/child.js';
import type { SandboxCommands } from '../harness/sandbox-process.js';
import { sleep } from '../stats.js';
import { type ChaosFigures, figuresOf, type Window } from './figures.js';
import { type Haproxy, type ServerStats, startHaproxy } from './haproxy.js';
import { watchHealth } from './health-watch.js';
import { Instances, type RecordedEvent } from './instances.js';
import { type Decision, type PersonResult, runPerson } from './person.js';

export interface ChaosOptions {
  people: number;
  /** One person in `rejectEvery` has the document rejected (5: 20 %). */
  rejectEvery: number;
  /** A new person arrives every this many ms. */
  arrivalEveryMs: number;
  /**
   * The sandbox's automatic review time; the document is then in manual review until the reviewer
   * decides, 0.25 to 2.25 s later, at a random moment.
   */
  reviewDelayMs: number;
  /** kit.shutdown()'s drain on SIGTERM. */
  drainMs: number;
  /** 'close': the shutdown before kit.shutdown() (kit.close(), the server closed at once), to compare. */
  shutdown: 'drain' | 'close';
  /** Share of the sandbox's webhook events lost whole (0.2: 20 %). */
  dropWebhooks: number;
  faults: { kill: boolean; redisRestart: boolean; rollingRestart: boolean };
  /** How long redis-server stays down in the Redis restart (0: started again at once). */
  redisDownMs?: number;
  /** Epoch ms after which people give up and the run ends. */
  deadline: number;
  /** The packages from their sources (the Vitest version), not their builds. */
  fromSource: boolean;
  log: (line: string) => void;
}

interface Person {
  result: PersonResult;
  /** When the sandbox approved (its identification.approved event), epoch ms. */
  approvedAt: number | undefined;
  sandboxStatus: string | undefined;
  /** What became of that event's webhook: 'dropped', 'delivered' or 'failed'. */
  approvalWebhook: string | undefined;
  /** The address the person connects from (what HAProxy's log names). */
  address: string;
}

/** Sums of the balancer's per-server counters between two readings. */
function statsDelta(before: ServerStats[], after: ServerStats[]) {
  const sum = (all: ServerStats[], key: 'econ' | 'eresp' | 'wretr' | 'wredis' | 'srvAbrt' | 'hrsp5xx') =>
    all.reduce((n, s) => n + s[key], 0);
  const delta = (key: Parameters<typeof sum>[1]) => sum(after, key) - sum(before, key);
  return {
    failedConnections: delta('econ'),
    failedResponses: delta('eresp'),
    retries: delta('wretr'),
    redispatches: delta('wredis'),
    serverAborts: delta('srvAbrt'),
    answers5xx: delta('hrsp5xx'),
  };
}

/** The chaos run: three instances on one Redis behind HAProxy, people verifying, faults injected. */
export async function runChaos(options: ChaosOptions): Promise<ChaosFigures> {
  await checkPeopleAddresses(options.people);
  const dir = mkdtempSync(path.join(tmpdir(), 'verify-kit-chaos-'));
  const cleanups: Array<() => Promise<unknown> | unknown> = [
    () => rmSync(dir, { recursive: true, force: true }),
  ];
  const cleanup = async () => {
    for (const fn of cleanups.reverse()) await Promise.resolve(fn()).catch(() => {});
  };
  try {
    // Persistent, as a production Redis is: its restart must not lose sessions and bindings.
    const dataDir = path.join(dir, 'redis');
    mkdirSync(dataDir);
    let redis: RedisServer = await startRedisServer({ dataDir });
    cleanups.push(() => redis.stop());
    const [sitePort, statsPort, ...appPorts] = await Promise.all([1, 2, 3, 4, 5].map(() => freePort()));
    const servers = ['app1', 'app2', 'app3'].map((name, i) => ({ name, port: appPorts[i] ?? 0 }));

    const webhookSecret = generateWebhookSecret();
    const sandboxChild = startChild<SandboxCommands>(
      new URL('../harness/sandbox-process.ts', import.meta.url),
      { fromSource: options.fromSource },
    );
    cleanups.push(() => sandboxChild.stop());
    // The service delivers its webhooks to the site's one address: the balancer.
    const { url: sandboxUrl, apiKey } = await sandboxChild.call('start', {
      reviewDelayMs: options.reviewDelayMs,
      webhookUrl: `http://127.0.0.1:${sitePort}/identity/webhook`,
      webhookSecret,
    });
    const sandbox = createSandboxControl({ url: sandboxUrl, apiKey });

    const instances = new Instances(servers, {
      config: {
        upstreamUrl: sandboxUrl,
        apiKey,
        webhookSecret,
        binding: 'redis',
        redisUrl: redis.url,
        shared: { sessionSecret: randomBytes(32).toString('hex') },
      },
      drainMs: options.drainMs,
      shutdown: options.shutdown,
      dir,
      fromSource: options.fromSource,
    });
    cleanups.push(() => instances.stopAll());
    await instances.startAll();
    const haproxy = await startHaproxy(
      { port: sitePort ?? 0, statsPort: statsPort ?? 0, servers },
      path.join(dir, 'haproxy.cfg'),
    );
    cleanups.push(() => haproxy.stop());
    await haproxy.waitUp();
    options.log(
      `site ${haproxy.url} (HAProxy) → ${servers.map((s) => `${s.name} :${s.port}`).join(', ')}; redis ${redis.url}`,
    );

    if (options.dropWebhooks > 0) await sandbox.dropWebhooks(options.dropWebhooks);
    const health = watchHealth(servers);
    cleanups.push(() => health.stop());

    const started = Date.now();
    const span = options.people * options.arrivalEveryMs;
    const windows: Window[] = [];
    const faults = injectFaults({
      options,
      instances,
      haproxy,
      windows,
      at: (share) => sleep(Math.max(0, started + share * span - Date.now())),
      restartRedis: async () => {
        const port = redis.port;
        const from = Date.now();
        await redis.stop();
        await sleep(options.redisDownMs ?? 0);
        redis = await startRedisServer({ port, dataDir });
        return { from, to: Date.now() };
      },
      serversReady: () => waitReady(servers, options.deadline),
    });
    const people = await arrive(options, haproxy.url, sandbox);
    await faults;
    await health.stop();
    const events = await eventsOnceTold(instances, people, options.log);
    return figuresOf({
      options,
      people,
      events,
      limitedAddresses: await limitedAddresses(redis.url),
      windows: windows.map((w) => ({ ...w, health: health.during(w.from, w.to) })),
      wallSeconds: Math.round((Date.now() - started) / 100) / 10,
    });
  } finally {
    await cleanup();
  }
}

/**
 * Person `i`'s own address: Linux routes all of 127.0.0.0/8 to loopback, so each person connects to
 * the balancer from a distinct source address, which HAProxy forwards (X-Forwarded-For) and the
 * instances' shared creation limits count, as they would count people on the internet.
 */
export function personAddress(i: number): string {
  return `127.20.${Math.floor(i / 250)}.${(i % 250) + 1}`;
}

/** One person every `arrivalEveryMs`, each followed to the end; the sandbox's approval time read at once. */
async function arrive(options: ChaosOptions, siteUrl: string, sandbox: SandboxControl) {
  const people: Promise<Person>[] = [];
  for (let i = 0; i < options.people; i++) {
    const decision: Decision = i % options.rejectEvery === options.rejectEvery - 1 ? 'reject' : 'approve';
    // People close idle connections to the balancer long before its 10 s: no reuse race of our own.
    const dispatcher = new Agent({
      localAddress: personAddress(i),
      keepAliveTimeout: 4000,
      keepAliveMaxTimeout: 4000,
    });
    people.push(
      runPerson({
        siteUrl,
        dispatcher,
        sandbox,
        decision,
        thinkMs: 500 + Math.random() * 3000,
        decideAfterMs: options.reviewDelayMs + 250 + Math.random() * 2000,
        deadline: options.deadline,
      })
        .then(async (result) => ({
          result,
          address: personAddress(i),
          ...(await decisionOf(sandbox, result.identificationId)),
        }))
        .finally(() => dispatcher.close()),
    );
    await sleep(options.arrivalEveryMs);
  }
  return Promise.all(people);
}

/** The people's addresses can be bound here (Linux: all of 127.0.0.0/8), or a clear error naming why. */
async function checkPeopleAddresses(people: number): Promise<void> {
  const address = personAddress(Math.max(0, people - 1));
  const server = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, address, resolve);
    });
  } catch (error) {
    throw new Error(
      `pnpm chaos gives each person its own loopback address (${personAddress(0)} to ${address}), but ` +
        `${address} cannot be bound here (${(error as NodeJS.ErrnoException).code}): Linux routes all ` +
        'of 127.0.0.0/8 to loopback; macOS has only 127.0.0.1 unless aliased (ifconfig lo0 alias).',
    );
  } finally {
    server.close();
  }
}

/**
 * Every instance's events, once every approved person's approval is among them: an approval whose
 * instance died while telling it is told by another once the claim ran out (DELIVERY_LEASE_MS), so
 * the run waits that long at most, and a missing one stays missing.
 */
async function eventsOnceTold(
  instances: Instances,
  people: Person[],
  log: (line: string) => void,
): Promise<RecordedEvent[]> {
  const approved = people.filter((p) => p.sandboxStatus === 'APPROVED').map((p) => p.result.identificationId);
  const started = Date.now();
  for (;;) {
    const events = instances.events();
    const told = new Set(events.filter((e) => e.status === 'APPROVED').map((e) => e.identificationId));
    const missing = approved.filter((id) => !told.has(id ?? '')).length;
    if (missing === 0 || Date.now() - started > DELIVERY_LEASE_MS + 2000) {
      if (Date.now() - started > 200) log(`waited ${Date.now() - started} ms for approvals still being told`);
      return events;
    }
    await sleep(100);
  }
}

/** The addresses the shared creation limits counted in Redis (the kit's default prefix). */
async function limitedAddresses(url: string): Promise<string[]> {
  const client = createClient({ url });
  client.on('error', () => {});
  await client.connect();
  try {
    const prefix = 'verify-kit:limit:address:';
    const keys: string[] = [];
    for await (const batch of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) keys.push(...batch);
    return keys.map((key) => key.slice(prefix.length)).sort();
  } finally {
    await client.close();
  }
}

/** The sandbox's status and the time of its identification.approved event (its delivery log, dropped ones too). */
async function decisionOf(sandbox: SandboxControl, identificationId: string | undefined) {
  if (identificationId === undefined)
    return { approvedAt: undefined, sandboxStatus: undefined, approvalWebhook: undefined };
  const [status, deliveries] = await Promise.all([
    sandbox.readStatus(identificationId),
    sandbox.deliveries({ identificationId }),
  ]);
  const attempts = deliveries.filter((d) => d.eventType === 'identification.approved');
  const approvals = attempts.map((d) => Date.parse(d.sentAt));
  const answered = attempts.filter((d) => d.ok).map((d) => Date.parse(d.sentAt));
  return {
    sandboxStatus: status,
    approvedAt: approvals.length > 0 ? Math.min(...approvals) : undefined,
    approvalWebhook: webhookFate(
      attempts.length,
      attempts.some((d) => d.dropped === true),
      answered,
    ),
  };
}

/** What became of the approval's webhook: dropped whole, delivered (ms after the first try), or failed. */
function webhookFate(attempts: number, dropped: boolean, answered: number[]): string | undefined {
  if (attempts === 0) return undefined;
  if (dropped) return 'dropped';
  return answered.length > 0 ? 'delivered' : 'failed';
}

/** Until every instance's readiness route answers 200 (after a Redis restart). */
async function waitReady(servers: { port: number }[], deadline: number): Promise<void> {
  const ready = async (port: number) => {
    try {
      return (await fetch(`http://127.0.0.1:${port}/ready`, { signal: AbortSignal.timeout(2000) })).ok;
    } catch {
      return false;
    }
  };
  while (Date.now() < deadline) {
    if ((await Promise.all(servers.map((s) => ready(s.port)))).every(Boolean)) return;
    await sleep(100);
  }
}

interface FaultContext {
  options: ChaosOptions;
  instances: Instances;
  haproxy: Haproxy;
  windows: Window[];
  /** Resolves at this share of the people's arrival span. */
  at: (share: number) => Promise<void>;
  /** Stops redis-server, starts it again `redisDownMs` later: when it was away. */
  restartRedis: () => Promise<{ from: number; to: number }>;
  serversReady: () => Promise<void>;
}

/** The faults, while people verify: a crash mid long-poll, a Redis restart, a rolling restart. */
async function injectFaults(ctx: FaultContext): Promise<void> {
  const { options, instances, haproxy, windows } = ctx;
  const window = async (name: string, run: () => Promise<Partial<Window> | undefined>) => {
    const before = await haproxy.stats();
    const from = Date.now();
    options.log(`fault: ${name}`);
    const more = await run();
    windows.push({
      name,
      from,
      to: Date.now(),
      balancer: statsDelta(before, await haproxy.stats()),
      ...more,
    });
  };
  if (options.faults.kill) {
    await ctx.at(0.25);
    await window('kill -9 app2 mid long-poll, restarted 2 s later', async () => {
      await instances.kill('app2');
      await sleep(2000);
      await instances.start('app2');
      await haproxy.waitUp(['app2']);
      return undefined;
    });
  }
  if (options.faults.redisRestart) {
    await ctx.at(0.45);
    const down = options.redisDownMs ?? 0;
    const name = down > 0 ? `redis-server down ${down / 1000} s, restarted` : 'redis-server restarted';
    await window(name, async () => {
      const storeDown = await ctx.restartRedis();
      await ctx.serversReady();
      await haproxy.waitUp();
      return { storeDown };
    });
  }
  if (options.faults.rollingRestart) {
    await ctx.at(0.6);
    await window('rolling restart (SIGTERM, one by one)', async () => {
      for (const { name } of instances.servers) {
        await instances.terminate(name);
        await instances.start(name);
        await haproxy.waitUp([name]);
      }
      return undefined;
    });
  }
}
