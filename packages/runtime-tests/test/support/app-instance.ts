import type { LogLines } from './log-lines.js';

/** The apps each runtime's folder holds: core's Fetch door and the Hono shell. */
export const APPS = ['fetch-door', 'hono'] as const;
export type AppName = (typeof APPS)[number];

/** What every app is configured with (its runtime's environment, or a Worker's bindings). */
export interface AppEnv {
  IDV_BASE_URL: string;
  IDV_API_KEY: string;
  IDV_WEBHOOK_SECRET: string;
  VERIFY_KIT_SECRET: string;
}

/** One running app: its own process, on a free port of 127.0.0.1. */
export interface AppInstance {
  /** e.g. http://127.0.0.1:41235 */
  readonly url: string;
  /** What the app printed (its logger is `console`). */
  readonly logs: LogLines;
  /** Kills it; idempotent. */
  close(): Promise<void>;
}

/** An app made ready to start (bundled, where its runtime runs a bundle). */
export interface PreparedApp {
  /** Starts one more instance, its own process with its own memory; resolves once it listens. */
  launch(env: AppEnv): Promise<AppInstance>;
  /** Removes what `prepare` made (the bundle). */
  dispose(): Promise<void>;
}

/** A runtime the apps are tested on: how its folder's app is made ready and started. */
export interface Runtime {
  readonly name: 'bun' | 'deno' | 'workerd';
  /**
   * Everything a start needs that is the same for every instance, e.g. the bundle; throws, naming the
   * fix, when the runtime's binary is not installed.
   */
  prepare(app: AppName): Promise<PreparedApp>;
}
