import type { Plugin } from 'vite';
import { inlineParts } from '../pages/src/text/inline.js';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => ENTITIES[c] ?? c);
const ATTRIBUTE_KEYS: Record<string, string> = { 'aria-label': 'data-text-label', title: 'data-text-title' };

/**
 * Writes the pages' words into their HTML from one table (English). The HTML names them: an element
 * whose whole content is `{{key}}` gets the text and `data-text="key"`; `aria-label="{{key}}"` and
 * `title="{{key}}"` get the text and `data-text-label` / `data-text-title`, so the pages can swap in
 * another language at run time. A key the table lacks, or a `{{` anywhere else, stops the build.
 */
export function pageText(table: Readonly<Record<string, string>>): Plugin {
  return {
    name: 'demo:page-text',
    transformIndexHtml: {
      order: 'pre',
      handler(html, { filename }) {
        const word = (key: string) => {
          const text = table[key];
          if (text === undefined) throw new Error(`${filename}: no text "${key}" in the table`);
          return text;
        };
        const filled = html
          .replace(
            /<(\w+)([^>]*)>\{\{(\w+)\}\}<\/\1>/g,
            (_, tag: string, attributes: string, key: string) => {
              const inner = inlineParts(word(key))
                .map((part) => (part.code ? `<code>${escapeHtml(part.text)}</code>` : escapeHtml(part.text)))
                .join('');
              return `<${tag}${attributes} data-text="${key}">${inner}</${tag}>`;
            },
          )
          .replace(
            /\s(aria-label|title)="\{\{(\w+)\}\}"/g,
            (_, name: string, key: string) =>
              ` ${name}="${escapeHtml(word(key))}" ${ATTRIBUTE_KEYS[name]}="${key}"`,
          );
        const left = /.*\{\{.*/.exec(filled);
        if (left !== null) {
          throw new Error(
            `${filename}: {{key}} is an element's whole content or an attribute: ${left[0].trim()}`,
          );
        }
        return filled;
      },
    },
  };
}
