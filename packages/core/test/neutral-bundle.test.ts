import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// The CI check of issue 31, run as CI would run it (`node scripts/neutral-bundle.mjs [entry]`):
// core's neutral entries (the main one and ./sql) bundle for --platform=neutral with no Node built-in
// or server package in their graph, and the check is shown to fail on fixtures that import them.
const script = fileURLToPath(new URL('../scripts/neutral-bundle.mjs', import.meta.url));
const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

async function check(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [script, ...args]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('the neutral-bundle check', () => {
  it("passes on core's neutral entries: the engine and the SQL store (./sql)", async () => {
    const result = await check();
    expect(result.stderr).toBe('');
    const [main, sql, ...more] = result.stdout.trim().split('\n');
    expect(main).toMatch(
      /^neutral bundle: packages\/core\/src\/index\.ts: \d+ modules, \d+ bytes, no Node built-in/,
    );
    expect(sql).toMatch(
      /^neutral bundle: packages\/core\/src\/sql\.ts: \d+ modules, \d+ bytes, no Node built-in/,
    );
    expect(more).toEqual([]);
    expect(result.code).toBe(0);
  });

  it('fails on a module importing node:crypto, naming the import and its importer', async () => {
    const result = await check(fixture('imports-node-crypto.ts'));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'node:crypto (a Node built-in), imported by packages/core/test/fixtures/imports-node-crypto.ts',
    );
  });

  it('fails on bare built-in names and on undici, redis and rate-limiter-flexible', async () => {
    const result = await check(fixture('imports-server-packages.mjs'));
    expect(result.code).toBe(1);
    for (const line of [
      'buffer (a Node built-in)',
      'fs/promises (a Node built-in)',
      'rate-limiter-flexible (rate-limiter-flexible, which core must not import)',
      'redis (redis, which core must not import)',
      'undici (undici, which core must not import)',
    ]) {
      expect(result.stderr).toContain(line);
    }
  });
});
