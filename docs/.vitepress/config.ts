import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitepress';
import { nav, sidebar } from './navigation.js';
import { REPOSITORY, repoLinks } from './repo-links.js';

const srcDir = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
const root = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');

// verify-kit's documentation: `pnpm run docs` serves it (pnpm 10 passes a bare `pnpm docs` to `npm docs`), `pnpm docs:build` builds it into docs/dist.
export default defineConfig({
  title: 'verify-kit',
  description:
    'Gate features of your web product behind a verified identity: a server kit for Express, Next.js, Hono and any Fetch server, a drop-in browser element and a local sandbox.',
  lang: 'en',
  outDir: 'dist',
  srcExclude: ['test/**', 'dist/**', 'node_modules/**'],
  lastUpdated: false,
  head: [['link', { rel: 'icon', type: 'image/svg+xml', href: '/favicon.svg' }]],
  themeConfig: {
    nav,
    sidebar,
    outline: { level: [2, 3], label: 'On this page' },
    search: { provider: 'local' },
    socialLinks: [{ icon: 'github', link: REPOSITORY }],
  },
  markdown: {
    // Links of an included file (SECURITY.md, a README's section) are resolved by repoLinks.
    include: { rebaseRelativeUrls: false },
    config: (md) => repoLinks(md, { root, srcDir }),
  },
});
