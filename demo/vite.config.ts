import { fileURLToPath } from 'node:url';
import { defaultClientConditions, defineConfig } from 'vite';
import { en } from './pages/src/text/en.js';
import { PAGE_FILES } from './src/page-files.js';
import { pageText } from './vite/page-text.js';
import { sharedChrome } from './vite/shared-chrome.js';

const pages = new URL('./pages/', import.meta.url);

/*
 * The demo's pages: plain HTML and TypeScript. `vite build` makes a multi-page build into
 * dist/public for the production server; in development (`pnpm demo`) the server runs Vite in
 * middleware mode instead, and the workspace packages are read from their sources (the `source`
 * export condition), so nothing needs building.
 */
export default defineConfig(({ command }) => ({
  root: fileURLToPath(pages),
  base: '/',
  publicDir: false,
  // The shared chrome first: its header's words are filled in with the page's.
  plugins: [sharedChrome(new URL('./partials/', pages)), pageText(en)],
  resolve: command === 'serve' ? { conditions: ['source', ...defaultClientConditions] } : {},
  build: {
    outDir: fileURLToPath(new URL('./dist/public', import.meta.url)),
    emptyOutDir: true,
    modulePreload: { polyfill: false },
    rolldownOptions: {
      input: Object.values(PAGE_FILES).map((file) => fileURLToPath(new URL(file, pages))),
    },
  },
}));
