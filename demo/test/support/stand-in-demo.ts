import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { PAGE_FILES } from '../../src/page-files.js';
import { type DemoOptions, type RunningDemo, startDemo } from '../../src/start-demo.js';

/** A directory of stand-in pages (`<h1>name</h1>`): the demo server without a Vite build. */
export function makeStandInPages(): string {
  const publicDir = mkdtempSync(path.join(tmpdir(), 'demo-pages-'));
  for (const [name, file] of Object.entries(PAGE_FILES))
    writeFileSync(path.join(publicDir, file), `<h1>${name}</h1>`);
  return publicDir;
}

export type StandInDemo = RunningDemo & { publicDir: string };

/**
 * The demo server with its embedded sandbox (no review delay), stand-in pages and `options`;
 * close() removes the pages too.
 */
export async function startStandInDemo(options: Omit<DemoOptions, 'publicDir'> = {}): Promise<StandInDemo> {
  const publicDir = makeStandInPages();
  const demo = await startDemo({ port: 0, reviewDelayMs: 0, publicDir, ...options });
  return {
    ...demo,
    publicDir,
    close: async () => {
      await demo.close();
      rmSync(publicDir, { recursive: true, force: true });
    },
  };
}

/** startStandInDemo for the tests of one file: started before them, closed after. Read `demo` in tests. */
export function useStandInDemo(options: Omit<DemoOptions, 'publicDir'> = {}): { demo: StandInDemo } {
  const context = {} as { demo: StandInDemo };
  beforeAll(async () => {
    context.demo = await startStandInDemo(options);
  });
  afterAll(async () => {
    await context.demo?.close();
  });
  return context;
}
