import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { quickStartLines, quickStartProblems } from './support/quick-start.js';
import { root } from './support/readmes.js';

// CI must fail where a newcomer would: `.ci/run` types the README's quick start as written, in its
// order, before any step of its own (a build or an install of CI's own before it would hide what the
// README's commands miss, as a `pnpm build` before `pnpm test` once did).
const readme = await readFile(join(root, 'README.md'), 'utf8');
const ci = await readFile(join(root, '.ci/run'), 'utf8');

test("the README's quick start is two command lines: install && demo, then test", () => {
  expect(quickStartLines(readme)).toEqual([
    expect.stringMatching(/^npx -y pnpm@\S+ install && npx -y pnpm@\S+ demo$/),
    expect.stringMatching(/^npx -y pnpm@\S+ test$/),
  ]);
});

test(".ci/run runs the README's quick start as written, in order, before its own steps", () => {
  expect(quickStartProblems(readme, ci)).toEqual([]);
});

test('the check notices a reordered .ci/run', () => {
  const lines = ci.split('\n');
  const lintAt = lines.findIndex((line) => line.trim() === 'pnpm lint');
  const demoAt = lines.findIndex((line) => line.includes('install && npx'));
  const testAt = lines.findIndex((line) => /^npx -y pnpm@\S+ test$/.test(line));
  const lintFirst = [...lines];
  lintFirst.splice(demoAt, 0, ...lintFirst.splice(lintAt, 1));
  expect(quickStartProblems(readme, lintFirst.join('\n'))).toContain(
    `lint (line ${demoAt + 1}) runs before the quick start is done`,
  );
  const swapped = [...lines];
  [swapped[demoAt], swapped[testAt]] = [lines[testAt]!, lines[demoAt]!];
  expect(quickStartProblems(readme, swapped.join('\n')).join('\n')).toMatch(/before the quick start's line/);
  const buildFirst = [...lines];
  buildFirst.splice(testAt, 0, 'pnpm build');
  expect(quickStartProblems(readme, buildFirst.join('\n'))).toEqual([
    `line ${testAt + 1} runs project code before the quick start is done: pnpm build`,
  ]);
  const commentedOut = ci.replace(/^(npx -y pnpm@\S+ test)$/m, '# $1');
  expect(quickStartProblems(readme, commentedOut).join('\n')).toMatch(/test" 0 times/);
});

test('the check notices a README whose commands .ci/run does not type', () => {
  const edited = readme.replace(/npx -y pnpm@(\S+) test/, 'npx -y pnpm@$1 build && npx -y pnpm@$1 test');
  expect(quickStartProblems(edited, ci).join('\n')).toMatch(/runs "npx -y pnpm@\S+ build && .*" 0 times/);
  const reordered = readme.replace(/^(npx -y pnpm@\S+ install && .*)\n(npx -y pnpm@\S+ test.*)$/m, '$2\n$1');
  expect(reordered).not.toBe(readme);
  expect(quickStartProblems(reordered, ci).join('\n')).toMatch(/before the quick start's line above it/);
});
