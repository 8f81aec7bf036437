// `pnpm bench [--only a,b] [--publish]`: runs the benchmarks against the built packages, prints a
// table, writes packages/bench/results/bench-results.json (gitignored); --publish also updates the
// committed bench-results.json and BENCHMARKS.md's table.
import os from 'node:os';
import { parseArgs } from 'node:util';
import type { Browser } from 'playwright-core';
import type { Bench, BenchContext } from './benches/bench.js';
import { BENCH_NAMES, type BenchName, type FigureKey, keysOf } from './figures.js';
import { launchChromium } from './harness/chromium.js';
import { buildResults, type RunRecord, textTable, writeResults } from './results.js';
import { withTimeout } from './stats.js';

/** The benchmarks that drive Chromium (launched once, on first use, closed after the last of them). */
const USES_BROWSER: readonly BenchName[] = ['click-to-qr', 'time-to-qr', 'push'];
/** benches/<name>.ts, loaded when its turn comes, so that one package's broken build nulls only its own figures. */
const load = async (name: BenchName): Promise<Bench> =>
  ((await import(`./benches/${name}.js`)) as { bench: Bench }).bench;

const log = (message: string) => process.stdout.write(`${message}\n`);

function selected(only: string | undefined): BenchName[] {
  if (only === undefined) return [...BENCH_NAMES];
  const names = only.split(',').map((s) => s.trim());
  const unknown = names.filter((name) => !(BENCH_NAMES as readonly string[]).includes(name));
  if (unknown.length > 0)
    throw new Error(`--only: unknown ${unknown.join(', ')} (known: ${BENCH_NAMES.join(', ')})`);
  return names as BenchName[];
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { only: { type: 'string' }, publish: { type: 'boolean' } } });
  const names = selected(values.only);
  if (values.publish && values.only) throw new Error('--publish needs a whole run (without --only)');
  let browser: Promise<Browser> | undefined;
  const closeBrowser = async () => {
    const open = browser;
    browser = undefined;
    if (open) await (await open.catch(() => undefined))?.close();
  };
  const context: BenchContext = {
    browser: () => {
      browser ??= launchChromium();
      return browser;
    },
    log,
  };
  const run: RunRecord = {
    figures: {},
    unavailable: {},
    details: {},
    startedAt: new Date(),
    loadAtStart: os.loadavg()[0]!,
  };
  for (const [index, name] of names.entries()) {
    // Chromium stays idle but alive otherwise: closed before the load benchmarks.
    if (!names.slice(index).some((n) => USES_BROWSER.includes(n))) await closeBrowser();
    const t0 = Date.now();
    log(`bench ${name} ...`);
    try {
      const bench = await load(name);
      const outcome = await withTimeout(`bench ${name}`, bench.timeoutMs, () => bench.run(context));
      Object.assign(run.figures, outcome.figures);
      run.details[name] = outcome.details;
      log(`bench ${name}: done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    } catch (error) {
      const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
      for (const key of keysOf(name) as FigureKey[]) run.unavailable[key] = `${name}: ${reason}`;
      log(`bench ${name}: FAILED after ${((Date.now() - t0) / 1000).toFixed(1)} s: ${reason}`);
    }
  }
  await closeBrowser();
  const results = buildResults(run);
  log(`\n${textTable(results)}\n`);
  log(`wrote ${writeResults(results, values.publish === true).join(', ')}`);
}

main().then(
  // Keep-alive sockets of the load generators must not hold the run open.
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
