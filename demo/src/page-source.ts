import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import express, { type RequestHandler } from 'express';
import { PAGE_FILES, type PageName } from './page-files.js';

/**
 * Where the pages come from: Vite's build (`builtPages`) or Vite's dev server (`vitePages`).
 * HTML is only handed out through `html`, so the server's routes (and gates) decide who sees a page.
 */
export interface PageSource {
  /** Serves what the pages load (scripts, styles); passes everything else on. */
  assets: RequestHandler;
  html(page: PageName): Promise<string>;
  close(): Promise<void>;
}

/** The output of `vite build`: HTML read at each request, hashed assets cached for a year. */
export function builtPages(publicDir: string): PageSource {
  for (const file of Object.values(PAGE_FILES)) {
    if (!existsSync(path.join(publicDir, file))) {
      throw new Error(
        `the demo's pages are not built (${path.join(publicDir, file)} is missing): run ` +
          '`pnpm -r --filter "@verify-kit/demo..." run build`, or `pnpm demo`, which needs no build',
      );
    }
  }
  const assets = express.static(path.join(publicDir, 'assets'), {
    immutable: true,
    maxAge: '1y',
    index: false,
    fallthrough: false,
  });
  return {
    assets: express.Router().use('/assets', assets),
    html: (page) => readFile(path.join(publicDir, PAGE_FILES[page]), 'utf8'),
    close: async () => {},
  };
}
