import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

// Core's neutral-bundle check (packages/core/scripts/neutral-bundle.mjs) on this package's entry: the
// mapping runs wherever the kit does (Workers, Bun, Deno, Node), so nothing of Node is in its graph,
// @opentelemetry/api's included.
const script = fileURLToPath(new URL('../../core/scripts/neutral-bundle.mjs', import.meta.url));
const entry = fileURLToPath(new URL('../src/index.ts', import.meta.url));

it('the entry bundles for a neutral platform: no Node built-in in its graph', async () => {
  const { stdout, stderr } = await promisify(execFile)(process.execPath, [script, entry]);
  expect(stderr).toBe('');
  expect(stdout).toMatch(
    /^neutral bundle: packages\/otel\/src\/index\.ts: \d+ modules, \d+ bytes, no Node built-in/,
  );
});
