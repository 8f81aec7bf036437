import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { type FencedBlock, fencedBlocks, findReadmes, root } from './support/readmes.js';
import { checkCommand, readWorkspace, shellCommands } from './support/shell-commands.js';

// The team's standard: every code block of every README is code that a test runs. A ts/js/tsx/html
// block must be found verbatim in a file under examples/ (type-checked by `pnpm lint`, run by the
// tests next to this one). Shell blocks must name real scripts, packages and bins.
const CODE = new Set(['ts', 'tsx', 'js', 'html', 'typescript', 'javascript']);
const SHELL = new Set(['sh', 'bash']);
/** Not code a test can run: the widget's CSS and Vue template, a diagram. */
const OTHER = new Set(['css', 'vue', '']);

async function exampleFiles(dir = join(root, 'examples')): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'test') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await exampleFiles(path)));
    else if (/\.(ts|tsx|js|html)$/.test(entry.name)) files.push(relative(root, path));
  }
  return files;
}

const readmes = await findReadmes();
const blocks: FencedBlock[] = (await Promise.all(readmes.map(fencedBlocks))).flat();
const sources = await Promise.all(
  (await exampleFiles()).map(async (file) => ({
    file,
    text: await readFile(join(root, file), 'utf8'),
  })),
);

test('the walk finds the READMEs of the root, the packages, the demo and the e2e suite', () => {
  expect(readmes).toEqual(
    expect.arrayContaining(['README.md', 'demo/README.md', 'e2e/README.md', 'packages/express/README.md']),
  );
  expect(blocks.filter((block) => CODE.has(block.lang)).length).toBeGreaterThan(10);
});

describe('every code block of a README is a file (or an excerpt of one) that the tests run', () => {
  for (const block of blocks.filter(({ lang }) => CODE.has(lang))) {
    test(`${block.where} (${block.lang})`, () => {
      const found = sources.filter(({ text }) => text.includes(block.code)).map(({ file }) => file);
      expect(found, `not found verbatim under examples/:\n${block.code}`).not.toEqual([]);
    });
  }
});

describe('every shell block of a README names real scripts, packages and bins', async () => {
  const workspace = await readWorkspace();
  for (const block of blocks.filter(({ lang }) => SHELL.has(lang))) {
    test(block.where, () => {
      const problems = shellCommands(block.code).flatMap((command) => {
        const problem = checkCommand(command, workspace);
        return problem === undefined ? [] : [`${command}: ${problem}`];
      });
      expect(problems).toEqual([]);
    });
  }
});

test('every fenced block is code, shell, or one of the few languages no test can run', () => {
  const unknown = blocks.filter(({ lang }) => !CODE.has(lang) && !SHELL.has(lang) && !OTHER.has(lang));
  expect(unknown.map(({ where, lang }) => `${where} (${lang})`)).toEqual([]);
});

test('the shell check refuses scripts, bins, filters, packages and pins that do not exist', async () => {
  const workspace = await readWorkspace();
  const refused = [
    'pnpm sandbx --port 0',
    'pnpm --filter @verify-kit/widget tests',
    'pnpm --filter @verify-kit/nothing build',
    'pnpm test:unit packages/nothing',
    'npx verify-kit-sandbx',
    'npx -y pnpm@9.0.0 install',
    'npm i @verify-kit/testkit',
    'npm i left-pad',
    'yarn demo',
  ];
  for (const command of refused) expect(checkCommand(command, workspace), command).toBeDefined();
  expect(shellCommands('A=1 pnpm demo --port 0 && curl -s \\\n  http://x # note')).toEqual([
    'pnpm demo --port 0',
    'curl -s http://x',
  ]);
});
