import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Merges this run's figures under `mode` ('load' or 'soak') into the gitignored
 * packages/bench/results/load-results.json; with `publish`, into the committed
 * packages/bench/load-results.json too (the other mode's figures stay). Returns the files written.
 */
export function writeResults(mode: string, figures: unknown, publish: boolean): string[] {
  const own = new URL('../../results/', import.meta.url);
  mkdirSync(own, { recursive: true });
  const files = [new URL('load-results.json', own)];
  if (publish) files.push(new URL('../../load-results.json', import.meta.url));
  for (const file of files) {
    const all = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
    all[mode] = figures;
    writeFileSync(file, `${JSON.stringify(all, null, 2)}\n`);
  }
  return files.map((file) => fileURLToPath(file));
}
