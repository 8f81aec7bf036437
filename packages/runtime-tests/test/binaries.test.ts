import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { bunBinary, denoBinary, resolveBinary } from './support/binaries.js';

// Each runtime's binary comes from npm, in the platform package pnpm installed for this machine: a
// machine without it fails every test of that runtime with the fix in the message, never a skip.

describe('the runtimes’ binaries, from npm', () => {
  it('bun and deno are installed for this machine, and run', () => {
    for (const binary of [bunBinary(), denoBinary()]) {
      const path = resolveBinary(binary);
      expect(execFileSync(path, ['--version'], { encoding: 'utf8' })).toMatch(/\d+\.\d+\.\d+/);
    }
  });

  it('each platform is mapped to the package its runtime publishes for it', () => {
    expect(bunBinary('linux', 'x64', false).platformPackage).toBe('@oven/bun-linux-x64');
    expect(bunBinary('linux', 'x64', true).platformPackage).toBe('@oven/bun-linux-x64-musl');
    expect(bunBinary('darwin', 'arm64', false).platformPackage).toBe('@oven/bun-darwin-aarch64');
    expect(bunBinary('win32', 'x64', false)).toMatchObject({
      platformPackage: '@oven/bun-windows-x64',
      file: 'bin/bun.exe',
    });
    expect(denoBinary('linux', 'arm64', false).platformPackage).toBe('@deno/linux-arm64-glibc');
    expect(denoBinary('darwin', 'x64', false).platformPackage).toBe('@deno/darwin-x64');
    expect(denoBinary('linux', 'x64', true).platformPackage).toBeUndefined(); // no musl build
  });

  it('a binary that is not installed fails with the fix in the message', () => {
    expect(() =>
      resolveBinary({ package: 'bun', platformPackage: '@oven/bun-plan9-x64', file: 'bin/bun' }),
    ).toThrow(
      /^bun: its binary's package @oven\/bun-plan9-x64 is not installed\. To fix: run `pnpm install` at the repository root so pnpm installs @oven\/bun-plan9-x64, the optional dependency of bun for .* \(not with --no-optional/,
    );
    expect(() => resolveBinary({ package: 'not-a-runtime', platformPackage: 'x', file: 'x' })).toThrow(
      /^not-a-runtime: the npm package "not-a-runtime" is not installed\. To fix: run `pnpm install`/,
    );
    expect(() => resolveBinary({ package: 'deno', platformPackage: undefined, file: 'deno' })).toThrow(
      /^deno: no binary is published for this platform\. To fix: npm has no deno binary for /,
    );
  });
});
