import type { AppEnv, AppInstance, PreparedApp } from './app-instance.js';

/** Instances of one app on one runtime, each its own process and memory: no store is shared. */
export interface RunningApp {
  readonly instances: readonly AppInstance[];
  /** From the call to the last instance listening, bundling included. */
  readonly startMs: number;
  /** Kills every instance and removes the bundle; idempotent. */
  close(): Promise<void>;
}

/**
 * Starts `count` instances of an app with `env`, side by side, after one preparation for all (e.g.
 * one bundle): `startApp(() => runtime.prepare('hono'), env, 2)` for two Hono apps sharing nothing.
 * Either every instance listens, or none is left running and it throws.
 */
export async function startApp(
  prepare: () => Promise<PreparedApp>,
  env: AppEnv,
  count = 1,
): Promise<RunningApp> {
  const began = performance.now();
  const prepared = await prepare();
  const launched = await Promise.allSettled(Array.from({ length: count }, () => prepared.launch(env)));
  const instances = launched.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= Promise.allSettled(instances.map((instance) => instance.close())).then(() =>
      prepared.dispose(),
    );
    return closing;
  };
  const failed = launched.find((result) => result.status === 'rejected');
  if (failed !== undefined) {
    await close();
    throw failed.reason;
  }
  return { instances, startMs: performance.now() - began, close };
}
