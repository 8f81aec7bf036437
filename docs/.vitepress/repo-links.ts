import { existsSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { MarkdownEnv } from 'vitepress';

/** Where the repository's files are read on the web. */
export const REPOSITORY = 'https://github.com/verify-kit/verify-kit';

interface LinkToken {
  type: string;
  attrGet(name: string): string | null;
  attrSet(name: string, value: string): void;
  children: LinkToken[] | null;
}
interface Md {
  core: { ruler: { push(name: string, rule: (state: { tokens: LinkToken[]; env: unknown }) => void): void } };
}

const posix = (path: string) => path.split(sep).join('/');

/**
 * Where a relative link of a page goes, the same way on GitHub and on the site: a page of the site
 * stays a page (`./options.md#store`), any other file of the repository becomes its address on
 * GitHub. A link is read from the page's folder; one that names nothing there is read from the
 * repository's root (the links of SECURITY.md, included by security.md). A link that names no file
 * at all is left as written, for VitePress's dead-link check to refuse.
 */
export function resolveRepoLink(
  href: string,
  page: string,
  { root, srcDir }: { root: string; srcDir: string },
): string {
  if (/^([a-z][a-z0-9+.-]*:|\/\/|#|\/)/i.test(href)) return href;
  const [path = '', hash = ''] = href.split(/(?=#)/);
  if (path === '') return href;
  const fromPage = resolve(srcDir, dirname(page), decodeURI(path));
  const fromRoot = resolve(root, decodeURI(path));
  const target = existsSync(fromPage) ? fromPage : existsSync(fromRoot) ? fromRoot : undefined;
  if (target === undefined || !`${target}${sep}`.startsWith(`${root}${sep}`)) return href;
  const inSite = `${target}${sep}`.startsWith(`${srcDir}${sep}`) && target.endsWith('.md');
  if (inSite) {
    const link = posix(relative(dirname(join(srcDir, page)), target));
    return `${link.startsWith('.') ? link : `./${link}`}${hash}`;
  }
  const kind = statSync(target).isDirectory() ? 'tree' : 'blob';
  return `${REPOSITORY}/${kind}/main/${posix(relative(root, target))}${hash}`;
}

/** The markdown-it plugin: every link of every page through `resolveRepoLink`, before VitePress reads it. */
export function repoLinks(md: Md, dirs: { root: string; srcDir: string }): void {
  md.core.ruler.push('verify-kit-repo-links', (state) => {
    const page = (state.env as MarkdownEnv).relativePath;
    const visit = (tokens: LinkToken[]) => {
      for (const token of tokens) {
        if (token.type === 'link_open') {
          const href = token.attrGet('href');
          if (href !== null) token.attrSet('href', resolveRepoLink(href, page, dirs));
        }
        if (token.children) visit(token.children);
      }
    };
    visit(state.tokens);
  });
}
