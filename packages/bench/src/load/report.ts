import { updateFile } from '../results.js';

/**
 * Merges this run's figures under `mode` ('load', 'soak', 'flood', 'chaos', …) into the gitignored
 * packages/bench/results/load-results.json; with `publish`, into the committed
 * packages/bench/load-results.json too (the other modes' figures stay). Returns the files written.
 */
export function writeResults(mode: string, figures: unknown, publish: boolean): string[] {
  const files = [
    'packages/bench/results/load-results.json',
    ...(publish ? ['packages/bench/load-results.json'] : []),
  ];
  for (const file of files) {
    updateFile(
      file,
      (old) => `${JSON.stringify({ ...(old && JSON.parse(old)), [mode]: figures }, null, 2)}\n`,
    );
  }
  return files;
}
