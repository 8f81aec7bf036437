/** The demo's pages, by name, as files of `pages/` (sources) and of `dist/public` (built). */
export const PAGE_FILES = {
  signIn: 'index.html',
  verify: 'verify.html',
  account: 'account.html',
  playground: 'playground.html',
  notFound: 'not-found.html',
  error: 'error.html',
  unavailable: 'unavailable.html',
} as const;

export type PageName = keyof typeof PAGE_FILES;
