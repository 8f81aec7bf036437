import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * A program from the system's packages (Debian's, which .ci/run installs when missing): on PATH or
 * in the usual folders; a clear error naming the package to install otherwise.
 */
export function findSystemProgram(name: string, debianPackage: string, usedFor: string): string {
  const dirs = [
    ...(process.env.PATH ?? '').split(path.delimiter),
    '/usr/sbin',
    '/usr/bin',
    '/usr/local/sbin',
    '/usr/local/bin',
  ];
  for (const dir of dirs) {
    const candidate = path.join(dir, name);
    if (dir !== '' && existsSync(candidate)) return candidate;
  }
  throw new Error(
    `${name} is not installed: ${usedFor}. Install it with \`apt-get install ${debianPackage}\` (CI does this in .ci/run).`,
  );
}
