import { existsSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

// Each runtime comes from npm: the `bun` and `deno` packages list their binaries as optional
// dependencies, one package per platform, which pnpm installs for this machine alone. Their own
// install scripts (which pnpm does not run: pnpm-workspace.yaml) only copy that binary into place,
// so the tests run it from its platform package. A machine without it fails here, naming the fix:
// never a skipped runtime.

const require = createRequire(import.meta.url);

/** The C library Linux builds are made for (Bun and Deno ship glibc and musl builds apart). */
function isMusl(): boolean {
  if (process.platform !== 'linux') return false;
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  return report?.header?.glibcVersionRuntime === undefined;
}

export interface PlatformBinary {
  /** The npm package people install, e.g. `bun`. */
  package: string;
  /** Its optional dependency for this machine, e.g. `@oven/bun-linux-x64`; undefined: none is made. */
  platformPackage: string | undefined;
  /** The binary's path inside the platform package. */
  file: string;
}

/** Bun's platform packages: `@oven/bun-<os>-<arch>[-musl]`. */
export function bunBinary(platform = process.platform, arch = process.arch, musl = isMusl()): PlatformBinary {
  const os = { linux: 'linux', darwin: 'darwin', win32: 'windows' }[platform as string];
  const cpu = { x64: 'x64', arm64: 'aarch64' }[arch as string];
  const exe = platform === 'win32' ? 'bin/bun.exe' : 'bin/bun';
  if (os === undefined || cpu === undefined) return { package: 'bun', platformPackage: undefined, file: exe };
  return { package: 'bun', platformPackage: `@oven/bun-${os}-${cpu}${musl ? '-musl' : ''}`, file: exe };
}

/** Deno's platform packages: `@deno/<os>-<arch>[-glibc]` (no musl build). */
export function denoBinary(
  platform = process.platform,
  arch = process.arch,
  musl = isMusl(),
): PlatformBinary {
  const exe = platform === 'win32' ? 'deno.exe' : 'deno';
  const supported = ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64', 'win32-x64', 'win32-arm64'];
  const key = `${platform}-${arch}`;
  if (!supported.includes(key) || musl) return { package: 'deno', platformPackage: undefined, file: exe };
  return {
    package: 'deno',
    platformPackage: `@deno/${key}${platform === 'linux' ? '-glibc' : ''}`,
    file: exe,
  };
}

/** The fix for a binary that could not be found, in words a developer or CI's log can act on. */
function missing(binary: PlatformBinary, why: string): Error {
  const where = `${process.platform}-${process.arch}${isMusl() ? ' (musl)' : ''}`;
  const fix =
    binary.platformPackage === undefined
      ? `npm has no ${binary.package} binary for ${where}: run these tests on a platform ${binary.package} publishes`
      : `run \`pnpm install\` at the repository root so pnpm installs ${binary.platformPackage}, the optional dependency of ${binary.package} for ${where} (not with --no-optional; pnpm-workspace.yaml's supportedArchitectures, if set, must include this platform)`;
  return new Error(`${binary.package}: ${why}. To fix: ${fix}.`);
}

/** The absolute path of the runtime's binary for this machine; throws naming the fix. */
export function resolveBinary(binary: PlatformBinary): string {
  let packageDir: string;
  try {
    packageDir = dirname(realpathSync(require.resolve(`${binary.package}/package.json`)));
  } catch {
    throw missing(binary, `the npm package "${binary.package}" is not installed`);
  }
  if (binary.platformPackage === undefined) throw missing(binary, 'no binary is published for this platform');
  let platformDir: string;
  try {
    const fromPackage = createRequire(join(packageDir, 'package.json'));
    platformDir = dirname(fromPackage.resolve(`${binary.platformPackage}/package.json`));
  } catch {
    throw missing(binary, `its binary's package ${binary.platformPackage} is not installed`);
  }
  const path = join(platformDir, binary.file);
  if (!existsSync(path)) throw missing(binary, `${path} is missing from ${binary.platformPackage}`);
  return path;
}
