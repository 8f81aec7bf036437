import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import {
  FIGURE_KEYS,
  type FigureKey,
  type Figures,
  type FigureValue,
  formatFigure,
  judge,
} from './figures.js';
import { round } from './stats.js';
import { table } from './table.js';

export interface RunRecord {
  figures: Figures;
  unavailable: Partial<Record<FigureKey, string>>;
  details: Record<string, unknown>;
  startedAt: Date;
  loadAtStart: number;
}

/** Pure apart from the clock and the machine: the content of bench-results.json. */
export function buildResults(run: RunRecord) {
  const figures = Object.fromEntries(FIGURE_KEYS.map((key) => [key, run.figures[key] ?? null])) as Record<
    FigureKey,
    FigureValue | null
  >;
  const unavailable: Partial<Record<FigureKey, string>> = {};
  for (const key of FIGURE_KEYS) {
    if (figures[key] === null) unavailable[key] = run.unavailable[key] ?? 'not measured';
  }
  const cpus = os.cpus();
  return {
    date: run.startedAt.toISOString(),
    node: process.version,
    machine: {
      cpuModel: cpus[0]?.model.trim() ?? 'unknown',
      cores: os.availableParallelism(),
      memoryGB: round(os.totalmem() / 2 ** 30, 1),
      platform: `${os.type()} ${os.release()} ${os.arch()}`,
    },
    durationSec: Math.round((Date.now() - run.startedAt.getTime()) / 1000),
    /** 1-minute load average when the run started and ended (others' work shows here). */
    loadAverage: { start: round(run.loadAtStart), end: round(os.loadavg()[0]!) },
    /** Every figure key; null when it could not be measured (the reason in `unavailable`). */
    figures,
    unavailable,
    goals: judge(run.figures),
    /** The baselines and raw numbers behind the figures, per benchmark. */
    details: run.details,
  };
}
export type BenchResults = ReturnType<typeof buildResults>;

function verdictOf(results: BenchResults, key: FigureKey): string {
  const verdict = results.goals.find((g) => g.key === key);
  if (verdict === undefined) return '';
  if (verdict.met === null) return `${verdict.goal}: not measured`;
  return `${verdict.goal}: ${verdict.met ? 'met' : '**missed**'}`;
}

function rows(results: BenchResults): string[][] {
  return FIGURE_KEYS.map((key) => [
    key,
    results.figures[key] === null
      ? `not measured (${results.unavailable[key]})`
      : formatFigure(key, results.figures[key]),
    verdictOf(results, key),
  ]);
}

/** For the terminal. */
export function textTable(results: BenchResults): string {
  return table(['figure', 'value', 'goal'], rows(results));
}

const START = '<!-- figures:start (written by `pnpm bench --publish`) -->';
const END = '<!-- figures:end -->';

/** BENCHMARKS.md with the table between its markers replaced; the prose around it is hand-written. */
export function withFigures(markdown: string, results: BenchResults): string {
  const start = markdown.indexOf(START);
  const end = markdown.indexOf(END);
  if (start < 0 || end < start) throw new Error(`BENCHMARKS.md has no ${START} … ${END} markers`);
  const { machine, loadAverage } = results;
  const table = [
    `Run ${results.date} on ${machine.cpuModel}, ${machine.cores} cores, Node ${results.node}, ` +
      `${results.durationSec} s; load average ${loadAverage.start} at start, ${loadAverage.end} at end.`,
    '',
    '| figure | value | goal |',
    '|---|---|---|',
    ...rows(results).map(([key, value, goal]) => `| \`${key}\` | ${value} | ${goal} |`),
  ].join('\n');
  return `${markdown.slice(0, start + START.length)}\n${table}\n${markdown.slice(end)}`;
}

/** The file at `path` (from the repository root) made anew from what it holds (undefined: nothing yet). */
export function updateFile(path: string, content: (old: string | undefined) => string): void {
  const file = new URL(path, new URL('../../../', import.meta.url));
  mkdirSync(new URL('.', file), { recursive: true });
  writeFileSync(file, content(existsSync(file) ? readFileSync(file, 'utf8') : undefined));
}

/**
 * Always into the gitignored `packages/bench/results/`; with `publish`, also the committed
 * bench-results.json and BENCHMARKS.md's table at the repository root.
 */
export function writeResults(results: BenchResults, publish: boolean): string[] {
  const json = `${JSON.stringify(results, null, 2)}\n`;
  const files = ['packages/bench/results/bench-results.json', ...(publish ? ['bench-results.json'] : [])];
  for (const file of files) updateFile(file, () => json);
  if (!publish) return files;
  updateFile('BENCHMARKS.md', (markdown = '') => withFigures(markdown, results));
  return [...files, 'BENCHMARKS.md'];
}
