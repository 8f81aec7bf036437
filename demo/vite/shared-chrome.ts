import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';

/** Puts `text` right after the page's one `tag`, indented as the lines after it. */
function insertAfter(html: string, tag: string, text: string, page: string): string {
  const at = html.indexOf(tag);
  if (at === -1 || html.indexOf(tag, at + 1) !== -1) throw new Error(`${page} must have exactly one ${tag}`);
  const indented = text.replace(/^(?=.)/gm, '  ');
  return `${html.slice(0, at + tag.length)}\n${indented.trimEnd()}${html.slice(at + tag.length)}`;
}

/**
 * What every page shares, written once in `partialsDir`: `head.html` (charset, viewport, icon,
 * stylesheet) opens each page's <head>, `header.html` (skip link, site header, message box) its
 * <body>. It runs before Vite's own HTML handling, so the stylesheet is bundled like any other.
 * The partials are read at each page: in development an edit shows at the next reload.
 */
export function sharedChrome(partialsDir: URL): Plugin {
  const partial = (name: string) => readFileSync(new URL(name, partialsDir), 'utf8');
  return {
    name: 'demo:shared-chrome',
    transformIndexHtml: {
      order: 'pre',
      handler(html, { filename }) {
        const withHead = insertAfter(html, '<head>', partial('head.html'), filename);
        return insertAfter(withHead, '<body>', partial('header.html'), filename);
      },
    },
  };
}
