import type { BenchResults, FigureKey, FigureValue, GoalResult } from './figures.js';

function unitOf(key: FigureKey): string {
  if (key.endsWith('Bytes')) return ' B';
  if (key.endsWith('Ms')) return ' ms';
  if (key.endsWith('MB')) return ' MB';
  if (key.endsWith('PerSec')) return '/s';
  return '';
}

const COUNT_FIELDS = new Set(['runs', 'tabs', 'initialReads', 'max']);

function formatObject(value: FigureValue, unit: string): string {
  if (typeof value === 'number') return `${value}${unit}`;
  return Object.entries(value)
    .map(([name, inner]) =>
      typeof inner === 'number'
        ? `${name} ${inner}${COUNT_FIELDS.has(name) ? '' : unit}`
        : `${name}: ${formatObject(inner, unit)}`,
    )
    .join(typeof Object.values(value)[0] === 'number' ? ', ' : '; ');
}

export function formatFigure(key: FigureKey, value: FigureValue | null, reason?: string): string {
  if (value === null) return `null (${reason ?? 'not measured'})`;
  if (typeof value === 'number' && key.endsWith('Bytes'))
    return `${value} B (${(value / 1024).toFixed(2)} KiB)`;
  return formatObject(value, unitOf(key));
}

export function verdict(goal: GoalResult | undefined): string {
  if (goal === undefined) return '';
  if (goal.met === null) return `goal ${goal.goal}: not measured`;
  if (goal.met) return `goal ${goal.goal}: met (${goal.actual})`;
  return `goal ${goal.goal}: MISSED (${goal.actual}, by ${goal.missedBy?.amount} = ${goal.missedBy?.percent}%)`;
}

/** Rows of [figure, value, goal] in FIGURE_KEYS order. */
export function rows(results: BenchResults): [string, string, string][] {
  return (Object.keys(results.figures) as FigureKey[]).map((key) => [
    key,
    formatFigure(key, results.figures[key], results.unavailable[key]),
    verdict(results.goals.find((g) => g.key === key)),
  ]);
}

/** A plain-text table for the terminal. */
export function textTable(results: BenchResults): string {
  const all = [['figure', 'value', 'goal'] as [string, string, string], ...rows(results)];
  const widths = [0, 1].map((i) => Math.max(...all.map((r) => r[i]!.length)));
  const line = (r: [string, string, string]) =>
    `${r[0].padEnd(widths[0]!)}  ${r[1].padEnd(widths[1]!)}  ${r[2]}`.trimEnd();
  return [line(all[0]!), '-'.repeat(widths[0]! + widths[1]! + 30), ...all.slice(1).map(line)].join('\n');
}
