// packages/express/src and packages/core/src have no import circles, type-only imports included: a
// module's dependencies are the modules below it, never one that depends on it. Their folders are layers:
// a file imports its own folder and the folders of the layers below, never a folder above or beside it.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const CORE_SRC = fileURLToPath(new URL('../../core/src/', import.meta.url));

// `import … from './x.js'`, `import type …`, `export … from`, `import('./x.js')`.
const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

/**
 * The folders of src by layer, top first, each declared once. A file may import files of its own folder
 * and of the rows below it; never a row above, nor another folder of its own row (folders on one row
 * are independent of each other). `.` is src itself: the entry points of package.json's `exports`
 * (index.ts, redis.ts, protocol.ts) and kit.ts, which assembles the kit from everything below.
 */
export const LAYERS: readonly (readonly string[])[] = [
  ['.'],
  ['http'], // the Express shell: the router, the gate, routes/ — what reads req and writes answers on res
  ['wiring'], // what ends the Express kit: shutdown
];

/** @verify-kit/core's folders by layer, as LAYERS: the engine under its Fetch door. */
export const CORE_LAYERS: readonly (readonly string[])[] = [
  ['.'],
  ['fetch'], // the Fetch door: handle(Request), gate(Request), the sealed visitor cookie
  ['answers'], // the protocol's answers, whatever the server: session, status, qr, webhook, the gate's
  ['wiring'], // KitCore and what builds it: options and their schemas, health, the store option
  // the gate's decision: visits, stored decisions, the verdict; the Redis adapters (./redis); the SQL
  // store (./sql); the store contract (./testing)
  ['decisions', 'redis', 'sql', 'testing'],
  ['status', 'creation'], // reading and following a status; creating a session, sending its link
  ['limits', 'webhooks'], // rate limits, the read budget, the creation ticket, counters; replay, hints
  ['bindings'], // which verification belongs to whom, and where it is kept; the KitRequest
  ['shared', 'web'], // helpers of every layer; Web API building blocks (cookies, sealing, signatures)
];

/** A source file's folder: the first segment of its path in src (`.` for src itself). */
const folderOf = (file: string): string => (file.includes('/') ? file.slice(0, file.indexOf('/')) : '.');

/** Every import from a folder to one above it or beside it, as `from -> to`. */
export function layerViolations(graph: Map<string, string[]>, layers = LAYERS): string[] {
  const row = new Map(layers.flatMap((folders, index) => folders.map((folder) => [folder, index] as const)));
  const found: string[] = [];
  for (const [file, imports] of graph) {
    const from = folderOf(file);
    for (const target of imports) {
      const to = folderOf(target);
      if (to === from) continue;
      const [fromRow, toRow] = [row.get(from), row.get(to)];
      if (fromRow === undefined || toRow === undefined)
        found.push(`${file} -> ${target}: a folder LAYERS does not name`);
      else if (toRow < fromRow) found.push(`${file} -> ${target}: ${to} is a layer above ${from}`);
      else if (toRow === fromRow) found.push(`${file} -> ${target}: ${to} and ${from} are on one layer`);
    }
  }
  return found;
}

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

describe.each([
  { name: 'packages/express/src', src: SRC, layers: LAYERS, files: 10 },
  { name: 'packages/core/src', src: CORE_SRC, layers: CORE_LAYERS, files: 50 },
])('the import graph of $name', ({ src, layers, files }) => {
  it('has no circles', () => {
    const graph = importGraph(src);
    expect(graph.size).toBeGreaterThan(files);
    expect(circles(graph).map((circle) => circle.join(' -> '))).toEqual([]);
  });

  it('imports only down its layers', () => {
    const graph = importGraph(src);
    const folders = new Set([...graph.keys()].map(folderOf));
    expect([...folders].sort()).toEqual(layers.flat().sort());
    expect(layerViolations(graph, layers)).toEqual([]);
  });
});

describe('the import check', () => {
  it('the check finds an import up a layer, beside one, and into an undeclared folder', () => {
    const graph = new Map([
      ['index.ts', ['fetch/handler.ts', 'shared/log.ts']],
      ['fetch/handler.ts', ['fetch/body.ts', 'wiring/core.ts']],
      ['bindings/binding.ts', ['decisions/verdict.ts', 'shared/errors.ts']],
      ['status/phase.ts', ['creation/qr-image.ts']],
      ['shared/errors.ts', ['protocol.ts', 'elsewhere/x.ts']],
    ]);
    expect(layerViolations(graph, CORE_LAYERS)).toEqual([
      'bindings/binding.ts -> decisions/verdict.ts: decisions is a layer above bindings',
      'status/phase.ts -> creation/qr-image.ts: creation and status are on one layer',
      'shared/errors.ts -> protocol.ts: . is a layer above shared',
      'shared/errors.ts -> elsewhere/x.ts: a folder LAYERS does not name',
    ]);
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
