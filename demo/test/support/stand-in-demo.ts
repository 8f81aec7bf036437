import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PAGE_FILES } from '../../src/page-files.js';
import { type RunningDemo, startDemo } from '../../src/start-demo.js';

/** A directory of stand-in pages (`<h1>name</h1>`): the demo server without a Vite build. */
export function makeStandInPages(): string {
  const publicDir = mkdtempSync(path.join(tmpdir(), 'demo-pages-'));
  for (const [name, file] of Object.entries(PAGE_FILES))
    writeFileSync(path.join(publicDir, file), `<h1>${name}</h1>`);
  return publicDir;
}

/** The demo server with its embedded sandbox and stand-in pages; close() removes them too. */
export async function startStandInDemo(): Promise<RunningDemo> {
  const publicDir = makeStandInPages();
  const demo = await startDemo({ port: 0, reviewDelayMs: 0, publicDir });
  return {
    ...demo,
    close: async () => {
      await demo.close();
      rmSync(publicDir, { recursive: true, force: true });
    },
  };
}
