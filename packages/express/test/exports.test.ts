import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as protocolPackage from '@verify-kit/protocol';
import { describe, expect, it } from 'vitest';
import * as kit from '../src/index.js';
import * as protocol from '../src/protocol.js';
import * as redis from '../src/redis.js';

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');

/** Every module a source file loads at run time (type-only imports are erased), transitively. */
const coreSrc = path.join(src, '../../core/src');

/** Where an import of ours lives: a relative one in this package, `@verify-kit/core/…` in core's src. */
function sourceOf(from: string, specifier: string): string | undefined {
  if (specifier.startsWith('.')) return path.join(path.dirname(from), specifier.replace(/\.js$/, '.ts'));
  if (specifier === '@verify-kit/core') return path.join(coreSrc, 'index.ts');
  const core = specifier.match(/^@verify-kit\/core\/(?:internal\/)?(.+)$/);
  return core === null ? undefined : path.join(coreSrc, `${core[1]}.ts`);
}

/** Every module a source file loads at run time (type-only imports aside), ours followed through. */
function runtimeImports(entry: string, seen = new Set<string>()): Set<string> {
  const file = path.isAbsolute(entry) ? entry : path.join(src, entry);
  const text = readFileSync(file, 'utf8');
  for (const [, specifier] of text.matchAll(/^(?:import|export)\s(?!type\b)[^;]*?from\s'([^']+)'/gms)) {
    if (specifier === undefined || seen.has(specifier)) continue;
    seen.add(specifier);
    const next = sourceOf(file, specifier);
    if (next !== undefined) runtimeImports(next, seen);
  }
  return seen;
}

describe('public exports', () => {
  it('stay this small', () => {
    expect(Object.keys(kit).sort()).toMatchInlineSnapshot(`
      [
        "ERROR_CODE",
        "PHASE",
        "VerifyKitError",
        "bindingExpiresAt",
        "createMemoryBindingStore",
        "createMemoryStatusBus",
        "createVerifyKit",
        "isVerifyKitError",
        "sameOriginJson",
        "statusRecordExpiresAt",
      ]
    `);
  });

  it('the protocol entry point is @verify-kit/protocol, whole (its own test snapshots it)', () => {
    expect({ ...protocol }).toStrictEqual({ ...protocolPackage });
  });

  it('@verify-kit/express/redis is its own entry: the main entry never loads redis', () => {
    expect(Object.keys(redis).sort()).toMatchInlineSnapshot(`
      [
        "DEFAULT_BINDING_PREFIX",
        "DEFAULT_REPLAY_PREFIX",
        "DEFAULT_STATUS_CHANNEL",
        "createRedisBindingStore",
        "createRedisReplayStore",
        "createRedisStatusBus",
        "redisStore",
      ]
    `);
    const main = runtimeImports('index.ts');
    expect(main.has('rate-limiter-flexible')).toBe(true); // the walk reaches the kit's counters
    expect(main.has('./redis.js')).toBe(false);
    expect(main.has('@verify-kit/core/redis')).toBe(false);
    expect(main.has('redis')).toBe(false);
    expect(runtimeImports('redis.ts').has('redis')).toBe(true);
  });

  it('names every error code once, with the client’s', () => {
    expect(Object.entries(kit.ERROR_CODE).every(([key, value]) => key === value)).toBe(true);
    expect(kit.ERROR_CODE).toMatchObject({
      UPSTREAM_TIMEOUT: 'UPSTREAM_TIMEOUT',
      NOT_APPROVED: 'NOT_APPROVED',
    });
  });
});
