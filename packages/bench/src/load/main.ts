/*
 * pnpm load: N simulated users through the kit into the sandbox, all on 127.0.0.1, bounded in
 * count and time. Prints a table and merges its figures into packages/bench/results/load-results.json
 * (gitignored); --publish also into the committed packages/bench/load-results.json.
 */
import { hardLimit, type LoadArgs, parseLoadArgs, USAGE } from './args.js';
import { runFlood } from './flood.js';
import { writeResults } from './report.js';
import { runLoad } from './run-load.js';

let args: LoadArgs;
try {
  args = parseLoadArgs(process.argv.slice(2));
} catch (error) {
  console.error(`pnpm load: ${error instanceof Error ? error.message : error}\n\n${USAGE}`);
  process.exit(2);
}
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}

const { deadline, lift } = hardLimit('pnpm load', args.maxSeconds, 30);
try {
  const result = args.flood ? await runFlood(args) : await runLoad(args, deadline);
  const written = writeResults(result.mode, result.figures, args.publish);
  console.log(`\nfigures written to ${written.join(', ')} (key "${result.mode}")`);
  process.exitCode = result.ok ? 0 : 1;
} catch (error) {
  console.error('pnpm load failed:', error);
  process.exitCode = 1;
} finally {
  lift();
}
