import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { REPOSITORY, resolveRepoLink } from '../.vitepress/repo-links.js';

const root = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
const dirs = { root, srcDir: `${root}/docs` };

test('a page of the site stays a page, its anchor kept', () => {
  expect(resolveRepoLink('./options.md#store', 'index.md', dirs)).toBe('./options.md#store');
  expect(resolveRepoLink('../options.md#store', 'getting-started/express.md', dirs)).toBe(
    '../options.md#store',
  );
});

test('any other file of the repository is read on GitHub', () => {
  expect(resolveRepoLink('../SECURITY.md', 'architecture.md', dirs)).toBe(
    `${REPOSITORY}/blob/main/SECURITY.md`,
  );
  expect(resolveRepoLink('../examples/next', 'index.md', dirs)).toBe(`${REPOSITORY}/tree/main/examples/next`);
});

test("an included file's links are read from the repository's root when the page's folder has nothing", () => {
  // SECURITY.md, included by security.md, links docs/architecture.md.
  expect(resolveRepoLink('docs/architecture.md#the-gate', 'security.md', dirs)).toBe(
    './architecture.md#the-gate',
  );
});

test('addresses, anchors and links to nothing are left for VitePress (its dead-link check refuses the last)', () => {
  for (const href of [
    'https://example.com/x.md',
    '#store',
    '/options',
    'mailto:a@example.com',
    'nothing.md',
  ]) {
    expect(resolveRepoLink(href, 'index.md', dirs)).toBe(href);
  }
});
