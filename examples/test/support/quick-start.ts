/** The command lines of the README's "Quick start" shell block, comments dropped, in order. */
export function quickStartLines(readme: string): string[] {
  const section = readme.split(/^## /m).find((part) => part.startsWith('Quick start\n'));
  const block = section?.match(/^```(?:sh|bash)\n([\s\S]*?)^```$/m)?.[1];
  if (block === undefined) throw new Error('README.md has no "## Quick start" section with a sh block');
  return block
    .split('\n')
    .map((line) => line.replace(/(^|\s)#.*$/, '').trim())
    .filter((line) => line !== '');
}

/** CI's own steps, which must come after the whole quick start. */
export const CI_OWN_STEPS: { name: string; runs: RegExp }[] = [
  { name: 'the lockfile check', runs: /^pnpm install --frozen-lockfile\b/ },
  { name: 'lint', runs: /^pnpm lint\b/ },
  { name: 'the Node 24 unit run', runs: /^"\$node24" node_modules\/vitest\/vitest\.mjs run\b/ },
  { name: 'the pack check', runs: /^pnpm pack:check\b/ },
];

/** What builds, installs packages or runs tests: before the quick start is done, only its own lines may. */
const RUNS_PROJECT_CODE = /\b(pnpm|npx|tsc|vite|vitest|playwright)\b|\bbuild\b/;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Where `.ci/run` departs from the README's quick start: each quick-start line must be a command
 * line of the script as written (alone, or opening a `{ …; }` / `( … )` group), in the README's
 * order; CI's own steps come after the last of them, and nothing before it builds or runs pnpm.
 */
export function quickStartProblems(readme: string, ci: string): string[] {
  const commands = ci
    .split('\n')
    .map((text, index) => ({ line: index + 1, text: text.trim() }))
    .filter(({ text }) => text !== '' && !text.startsWith('#'));
  const problems: string[] = [];
  const at: number[] = [];
  for (const wanted of quickStartLines(readme)) {
    const runs = new RegExp(`^(?:[({]\\s*)?${escapeRegExp(wanted)}(?=\\s*(?:$|[;)}&|>]|2>))`);
    const found = commands.filter(({ text }) => runs.test(text));
    if (found.length !== 1) {
      problems.push(`.ci/run runs "${wanted}" ${found.length} times, not once as written`);
      continue;
    }
    const line = found[0]!.line;
    if (at.length > 0 && line < at[at.length - 1]!) {
      problems.push(`.ci/run runs "${wanted}" (line ${line}) before the quick start's line above it`);
    }
    at.push(line);
  }
  const quickStartEnd = Math.max(0, ...at);
  for (const { name, runs } of CI_OWN_STEPS) {
    const found = commands.filter(({ text }) => runs.test(text));
    if (found.length === 0) problems.push(`.ci/run has no ${name}`);
    for (const { line } of found) {
      if (line < quickStartEnd) problems.push(`${name} (line ${line}) runs before the quick start is done`);
    }
  }
  for (const { line, text } of commands) {
    if (line < quickStartEnd && !at.includes(line) && RUNS_PROJECT_CODE.test(text)) {
      problems.push(`line ${line} runs project code before the quick start is done: ${text}`);
    }
  }
  return problems;
}
