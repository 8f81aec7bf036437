import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../../..', import.meta.url));

export interface FencedBlock {
  /** The README, relative to the repository root, and the line of the opening fence. */
  where: string;
  lang: string;
  code: string;
}

const SKIPPED_DIRECTORIES = new Set([
  'node_modules',
  'dist',
  '.git',
  'test-results',
  'playwright-report',
  'artifacts',
]);

/** Every README.md of the repository (root, packages, demo, e2e, examples), relative to the root. */
export async function findReadmes(dir = root): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.isDirectory() && !SKIPPED_DIRECTORIES.has(entry.name)) {
      found.push(...(await findReadmes(join(dir, entry.name))));
    } else if (entry.isFile() && entry.name === 'README.md') {
      found.push(relative(root, join(dir, entry.name)));
    }
  }
  return found.sort();
}

/** The fenced blocks of a README at the top level (indented fences are part of a list item). */
export async function fencedBlocks(readme: string): Promise<FencedBlock[]> {
  const markdown = await readFile(join(root, readme), 'utf8');
  const blocks: FencedBlock[] = [];
  for (const match of markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)) {
    const line = markdown.slice(0, match.index).split('\n').length;
    blocks.push({ where: `${readme}:${line}`, lang: match[1] ?? '', code: match[2] ?? '' });
  }
  return blocks;
}
