import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// The modules bound for the runtime-neutral core (@verify-kit/core) bundle for --platform=neutral on
// their own, as core's check runs (`node packages/core/scripts/neutral-bundle.mjs <entry>`): no Node
// built-in, undici, redis or rate-limiter-flexible anywhere in their import graphs.
const script = fileURLToPath(new URL('../../core/scripts/neutral-bundle.mjs', import.meta.url));
const source = (path: string) => fileURLToPath(new URL(`../src/${path}`, import.meta.url));

describe('modules bound for the runtime-neutral core', () => {
  it.each(['shared/lru.ts', 'shared/ip-address.ts', 'creation/qr-image.ts'])(
    '%s bundles for --platform=neutral',
    async (path) => {
      const { stdout, stderr } = await promisify(execFile)(process.execPath, [script, source(path)]);
      expect(stderr).toBe('');
      expect(stdout).toContain(`packages/express/src/${path}: `);
      expect(stdout).toContain('no Node built-in, undici, redis or rate-limiter-flexible');
    },
  );
});
