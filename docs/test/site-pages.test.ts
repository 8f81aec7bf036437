import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { checkCommand, readWorkspace, shellCommands } from '../../examples/test/support/shell-commands.js';
import { pageFiles } from '../.vitepress/navigation.js';
import { slugify } from '../.vitepress/option-index.js';

// The standard of the READMEs, on the site: every code sample is a file a test runs. A page shows
// code only through VitePress's file include (`<<< @/../examples/…`), of a file under examples/
// (type-checked by `pnpm lint`, run by examples/test); a shell block names real scripts, packages
// and bins.

const docs = fileURLToPath(new URL('..', import.meta.url));
const root = join(docs, '..');
/** Blocks no test can run: a diagram. */
const NOT_CODE = new Set(['']);
const SHELL = new Set(['sh', 'bash']);

function markdownFiles(dir = docs): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (['node_modules', 'dist', 'test'].includes(entry.name) || entry.name.startsWith('.')) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [relative(docs, path)] : [];
  });
}

const pages = markdownFiles().map((file) => ({ file, text: readFileSync(join(docs, file), 'utf8') }));

test('every page is in the sidebar, and every page of the sidebar exists', () => {
  expect(pages.map(({ file }) => file).sort()).toEqual([...pageFiles()].sort());
});

describe('code on a page is a tested file, included', async () => {
  const workspace = await readWorkspace();
  for (const { file, text } of pages) {
    test(file, () => {
      const problems: string[] = [];
      for (const [, lang = '', code = ''] of text.matchAll(
        /^[ \t]*```([\w-]*)[^\n]*\n([\s\S]*?)^[ \t]*```$/gm,
      )) {
        if (SHELL.has(lang)) {
          for (const command of shellCommands(code)) {
            const problem = checkCommand(command, workspace);
            if (problem !== undefined) problems.push(`${command}: ${problem}`);
          }
        } else if (!NOT_CODE.has(lang)) {
          problems.push(`a \`\`\`${lang} block: include the tested file instead (<<< @/../examples/…)`);
        }
      }
      for (const [, path = '', region] of text.matchAll(/^[ \t]*<<< @\/\.\.\/([^\s#{]+)(?:#([\w-]+))?/gm)) {
        const tested = path.startsWith('examples/') && !path.startsWith('examples/test/');
        if (!tested) problems.push(`${path}: not a file under examples/`);
        if (!existsSync(join(root, path))) {
          problems.push(`${path}: no such file`);
        } else if (
          region !== undefined &&
          !readFileSync(join(root, path), 'utf8').includes(`// #region ${region}\n`)
        ) {
          problems.push(`${path}: no region ${region}`);
        }
      }
      for (const [, path = ''] of text.matchAll(/<!--@include: ([^#\s]+?)(?:#[\w-]+)?-->/g)) {
        if (!existsSync(join(docs, file, '..', path))) problems.push(`${path}: no such file to include`);
      }
      expect(problems).toEqual([]);
    });
  }
});

test('the start page leads to every platform and every store', () => {
  const start = readFileSync(join(docs, 'index.md'), 'utf8');
  const choosing = readFileSync(join(docs, 'stores-and-platforms.md'), 'utf8');
  const sections = [...choosing.matchAll(/^### (.+)$/gm)].map(([, heading = '']) =>
    slugify(heading.replace(/`/g, '')),
  );
  expect(sections.length).toBeGreaterThan(10);
  const unlinked = sections.filter((anchor) => !start.includes(`(./stores-and-platforms.md#${anchor})`));
  expect(unlinked).toEqual([]);
});
