// packages/express/src has no import circles, type-only imports included: a module's dependencies
// are the modules below it, never one that (through others) depends on it.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

// `import … from './x.js'`, `import type …`, `export … from`, `import('./x.js')`.
const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

/** Each source file's relative imports, as paths of source files. */
export function importGraph(root: string): Map<string, string[]> {
  const files = readdirSync(root, { recursive: true })
    .map(String)
    .filter((file) => file.endsWith('.ts'));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    const imports = [...text.matchAll(RELATIVE_IMPORT)].map(([, specifier]) =>
      relative(root, resolve(dirname(join(root, file)), String(specifier).replace(/\.js$/, '.ts'))),
    );
    graph.set(file, imports);
  }
  return graph;
}

/** Every circle a depth-first walk meets, each as the files around it (first file repeated last). */
export function circles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const walk = (file: string) => {
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) walk(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) walk(file);
  return found;
}

describe('the import graph of packages/express/src', () => {
  it('has no circles', () => {
    const graph = importGraph(SRC);
    expect(graph.size).toBeGreaterThan(30);
    expect(circles(graph).map((circle) => circle.join(' -> '))).toEqual([]);
  });

  it('the check finds a circle, type-only imports included', () => {
    const graph = new Map([
      ['options.ts', ['audit.ts']],
      ['audit.ts', ['log.ts']],
      ['log.ts', ['options.ts']],
      ['core.ts', ['options.ts']],
    ]);
    expect(circles(graph)).toEqual([['audit.ts', 'log.ts', 'options.ts', 'audit.ts']]);
    const typeOnly = "import type { Logger } from './options.js';\nexport { x } from '../y.js';";
    expect([...typeOnly.matchAll(RELATIVE_IMPORT)].map((match) => match[1])).toEqual([
      './options.js',
      '../y.js',
    ]);
  });
});
