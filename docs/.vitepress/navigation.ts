import type { DefaultTheme } from 'vitepress';

// Every page of the site, in the order a newcomer reads them: the sidebar, and the list the tests
// check (docs/test: each page is in it, each page of it exists; e2e/tests/docs-site.spec.ts renders
// each one in Chromium).

export const sidebar: DefaultTheme.SidebarItem[] = [
  { text: 'Introduction', link: '/' },
  {
    text: 'Getting started',
    items: [
      { text: 'Express', link: '/getting-started/express' },
      { text: 'Next.js', link: '/getting-started/next' },
      { text: 'Hono', link: '/getting-started/hono' },
      { text: 'A Fetch server: Bun, Deno, Workers, Node', link: '/getting-started/fetch' },
    ],
  },
  {
    text: 'Choosing',
    items: [{ text: 'Stores and platforms', link: '/stores-and-platforms' }],
  },
  {
    text: 'Reference',
    items: [
      { text: 'How it works', link: '/how-it-works' },
      { text: 'Every option', link: '/options' },
      { text: 'The widget', link: '/widget' },
      { text: 'The sandbox', link: '/sandbox' },
      { text: 'The service client', link: '/client' },
    ],
  },
  {
    text: 'Running it',
    items: [
      { text: 'Operations', link: '/operations' },
      { text: 'Security', link: '/security' },
      { text: 'Architecture', link: '/architecture' },
    ],
  },
];

export const nav: DefaultTheme.NavItem[] = [
  { text: 'Get started', link: '/getting-started/express', activeMatch: '^/getting-started/' },
  { text: 'Stores and platforms', link: '/stores-and-platforms' },
  { text: 'Options', link: '/options' },
  { text: 'Widget', link: '/widget' },
];

/** Each page's source file, relative to docs/: `/` is index.md, `/options` options.md. */
export function pageFiles(items: DefaultTheme.SidebarItem[] = sidebar): string[] {
  return items.flatMap((item) => [
    ...(item.link === undefined ? [] : [item.link === '/' ? 'index.md' : `${item.link.slice(1)}.md`]),
    ...pageFiles(item.items ?? []),
  ]);
}
