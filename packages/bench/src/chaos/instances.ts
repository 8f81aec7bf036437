import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { StatusChangeEvent } from '@verify-kit/express';
import type { AppConfig } from '../harness/app.js';
import type { AppCommands } from '../harness/app-process.js';
import { type Child, startChild } from '../harness/child.js';

export interface InstanceSettings {
  /** The kit's configuration, the same for every instance (the upstream, Redis, the session secret). */
  config: Omit<AppConfig, 'eventsFile'>;
  /** How long kit.shutdown() drains on SIGTERM. */
  drainMs: number;
  /** 'close': on SIGTERM, kit.close() and the server closed at once, as before kit.shutdown() (comparison). */
  shutdown: 'drain' | 'close';
  /** Where each instance appends its onStatusChange events. */
  dir: string;
  /** The packages from their sources (tests), not dist. */
  fromSource: boolean;
}

export interface RecordedEvent extends StatusChangeEvent {
  instance: string;
  pid: number;
  recordedAt: number;
}

/**
 * The integrator's instances (harness/app-process.ts, each its own process) on fixed ports, as a
 * load balancer knows them: started, killed (SIGKILL), stopped as a deploy does (SIGTERM: the kit
 * drains), and started again on the same address.
 */
export class Instances {
  readonly #children = new Map<string, Child<AppCommands>>();

  constructor(
    readonly servers: { name: string; port: number }[],
    private readonly settings: InstanceSettings,
  ) {}

  async startAll(): Promise<void> {
    await Promise.all(this.servers.map((server) => this.start(server.name)));
  }

  async start(name: string): Promise<void> {
    const port = this.#portOf(name);
    const child = startChild<AppCommands>(new URL('../harness/app-process.ts', import.meta.url), {
      env: { BENCH_DRAIN_MS: String(this.settings.drainMs), BENCH_SHUTDOWN: this.settings.shutdown },
      fromSource: this.settings.fromSource,
    });
    this.#children.set(name, child);
    await child.call('listen', { port });
    await child.call('configure', { ...this.settings.config, eventsFile: this.#eventsFile(name) });
  }

  /** A crash: SIGKILL, nothing answered, nothing closed. */
  kill(name: string): Promise<void> {
    return this.#child(name).signal('SIGKILL');
  }

  /** A deploy's stop: SIGTERM; resolves when the instance has drained and exited. */
  terminate(name: string): Promise<void> {
    return this.#child(name).signal('SIGTERM');
  }

  /** Every onStatusChange event every instance recorded (those of killed processes included). */
  events(): RecordedEvent[] {
    return this.servers.flatMap(({ name }) => {
      const file = this.#eventsFile(name);
      if (!existsSync(file)) return [];
      return readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => ({ ...(JSON.parse(line) as Omit<RecordedEvent, 'instance'>), instance: name }));
    });
  }

  async stopAll(): Promise<void> {
    await Promise.allSettled([...this.#children.values()].map((child) => child.stop()));
  }

  #child(name: string): Child<AppCommands> {
    const child = this.#children.get(name);
    if (child === undefined) throw new Error(`no instance ${name}`);
    return child;
  }

  #portOf(name: string): number {
    const server = this.servers.find((s) => s.name === name);
    if (server === undefined) throw new Error(`no instance ${name}`);
    return server.port;
  }

  #eventsFile(name: string): string {
    return path.join(this.settings.dir, `events-${name}.jsonl`);
  }
}
