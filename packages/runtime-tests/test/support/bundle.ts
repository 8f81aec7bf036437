import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';

// An app as one ES module, for a runtime that runs a bundle rather than this workspace's TypeScript
// sources (workerd, as wrangler gives it one; Deno, which would need sloppy imports for the sources'
// `.js` specifiers). The workspace's packages resolve through the `source` export condition, as in
// every test, so nothing needs building first.

export interface Bundle {
  /** The bundle's path, in a folder of its own. */
  path: string;
  /** Removes the folder. */
  remove(): Promise<void>;
}

/** Bundles `entry` for a runtime that resolves packages with `conditions` (beside `source`). */
export async function bundleApp(entry: string, conditions: readonly string[]): Promise<Bundle> {
  const dir = await mkdtemp(join(tmpdir(), 'verify-kit-runtime-'));
  const path = join(dir, 'app.mjs');
  try {
    await build({
      entryPoints: [entry],
      outfile: path,
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      target: 'es2022',
      conditions: [...conditions, 'source'],
      mainFields: ['module', 'main'],
      logLevel: 'silent',
    });
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return { path, remove: () => rm(dir, { recursive: true, force: true }) };
}
