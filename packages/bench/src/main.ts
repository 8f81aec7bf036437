// `pnpm bench`: runs every benchmark against the built packages, prints a table, writes
// bench-results.json and BENCHMARKS.md at the repository root. BENCH_ONLY=a,b runs some benchmarks
// and only prints (the files always hold a complete run).
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import type { Browser } from 'playwright-core';
import type { BenchContext } from './benches/bench.js';
import { BENCHES } from './registry.js';
import { buildResults, type FigureKey, type Figures } from './report/figures.js';
import { textTable } from './report/format.js';
import type { LoadResults } from './report/load-markdown.js';
import { renderMarkdown } from './report/markdown.js';
import { launchChromium } from './support/browser.js';
import { describeMachine } from './support/machine.js';
import { round, withTimeout } from './support/stats.js';

const root = new URL('../../../', import.meta.url);
const log = (message: string) => process.stdout.write(`${message}\n`);

async function main(): Promise<void> {
  const only = process.env.BENCH_ONLY?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = only?.filter((name) => !BENCHES.some((b) => b.name === name)) ?? [];
  if (unknown.length > 0) {
    throw new Error(
      `BENCH_ONLY: unknown ${unknown.join(', ')} (known: ${BENCHES.map((b) => b.name).join(', ')})`,
    );
  }
  const selected = only ? BENCHES.filter((b) => only.includes(b.name)) : BENCHES;

  let browser: Promise<Browser> | undefined;
  const context: BenchContext = {
    browser: () => {
      browser ??= launchChromium();
      return browser;
    },
    log,
  };

  const started = Date.now();
  const loadAtStart = os.loadavg()[0]!;
  const figures: Figures = {};
  const unavailable: Partial<Record<FigureKey, string>> = {};
  const details: Record<string, unknown> = {};
  const closeBrowser = async () => {
    const open = browser;
    browser = undefined;
    if (open) await (await open.catch(() => undefined))?.close();
  };
  for (const [index, bench] of selected.entries()) {
    // Chromium stays idle but alive otherwise: close it before the load benchmarks.
    if (!selected.slice(index).some((b) => b.usesBrowser)) await closeBrowser();
    const t0 = Date.now();
    log(`bench ${bench.name} ...`);
    try {
      const run = await bench.load();
      const outcome = await withTimeout(`bench ${bench.name}`, run.timeoutMs, () => run.run(context));
      Object.assign(figures, outcome.figures);
      if (outcome.details !== undefined) details[bench.name] = outcome.details;
      log(`bench ${bench.name}: done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    } catch (error) {
      const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
      for (const key of bench.keys) unavailable[key] = `${bench.name}: ${reason}`;
      log(`bench ${bench.name}: FAILED after ${((Date.now() - t0) / 1000).toFixed(1)} s: ${reason}`);
    }
  }
  await closeBrowser();

  const results = buildResults({
    figures,
    unavailable,
    details,
    machine: describeMachine(),
    node: process.version,
    date: new Date(),
    durationSec: (Date.now() - started) / 1000,
    loadAverage: { start: round(loadAtStart), end: round(os.loadavg()[0]!) },
  });
  log('');
  log(textTable(results));
  if (only) {
    log(`\ndetails: ${JSON.stringify(details, null, 1)}`);
    log('\nBENCH_ONLY: bench-results.json and BENCHMARKS.md left as they were.');
    return;
  }
  await writeFile(new URL('bench-results.json', root), `${JSON.stringify(results, null, 2)}\n`);
  await writeFile(new URL('BENCHMARKS.md', root), renderMarkdown(results, await lastLoadResults()));
  log('\nwrote bench-results.json and BENCHMARKS.md');
}

/** What `pnpm load` wrote last, for the load section of BENCHMARKS.md; undefined before its first run. */
async function lastLoadResults(): Promise<LoadResults | undefined> {
  try {
    return JSON.parse(await readFile(new URL('load-results.json', new URL('../', import.meta.url)), 'utf8'));
  } catch {
    return undefined;
  }
}

main().then(
  // Keep-alive sockets of the load generators must not hold the run open.
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
