import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

// Core's neutral-bundle check (packages/core/scripts/neutral-bundle.mjs) on this package's entries:
// the main entry, hono included, bundles for --platform=neutral with nothing of Node in its graph (so
// it runs on Workers, Bun and Deno; @hono/node-server, which imports node:http, is not in it either);
// the ./redis entry is the Node one.
const script = fileURLToPath(new URL('../../core/scripts/neutral-bundle.mjs', import.meta.url));
const entry = (name: string) => fileURLToPath(new URL(`../src/${name}`, import.meta.url));

async function check(path: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [script, path]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

it('the main entry bundles for a neutral platform: no Node built-in, undici, redis or rate-limiter-flexible', async () => {
  const result = await check(entry('index.ts'));
  expect(result.stderr).toBe('');
  expect(result.stdout).toMatch(
    /^neutral bundle: packages\/hono\/src\/index\.ts: \d+ modules, \d+ bytes, no Node built-in/,
  );
  expect(result.code).toBe(0);
});

it('the ./redis entry is the Node one (redis and rate-limiter-flexible)', async () => {
  const result = await check(entry('redis.ts'));
  expect(result.code).toBe(1);
  expect(result.stderr).toContain('redis (redis, which core must not import)');
  expect(result.stderr).toContain(
    'rate-limiter-flexible (rate-limiter-flexible, which core must not import)',
  );
});
