import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/** Left-aligned first column, right-aligned others. */
export function table(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const cells = [header, ...rows].map((row) => row.map(String));
  const widths = header.map((_, i) => Math.max(...cells.map((row) => row[i]?.length ?? 0)));
  const line = (row: string[]) =>
    row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  return [line(cells[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join(
    '\n',
  );
}

/** Merges this run's figures under `mode` into the JSON file (the other modes' figures stay). */
export function writeResults(file: string, mode: string, figures: unknown): void {
  let all: Record<string, unknown> = {};
  if (existsSync(file)) {
    try {
      all = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    } catch {
      all = {};
    }
  }
  all[mode] = figures;
  writeFileSync(file, `${JSON.stringify(all, null, 2)}\n`);
}
