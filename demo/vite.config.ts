import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const page = (name: string) => fileURLToPath(new URL(`./pages/${name}.html`, import.meta.url));

// A multi-page build of plain HTML and TypeScript into dist/public; the demo server serves it.
export default defineConfig({
  root: fileURLToPath(new URL('./pages', import.meta.url)),
  base: '/',
  publicDir: false,
  build: {
    outDir: fileURLToPath(new URL('./dist/public', import.meta.url)),
    emptyOutDir: true,
    modulePreload: { polyfill: false },
    rollupOptions: {
      input: {
        index: page('index'),
        verify: page('verify'),
        account: page('account'),
        playground: page('playground'),
        'not-found': page('not-found'),
        error: page('error'),
        unavailable: page('unavailable'),
      },
    },
  },
});
