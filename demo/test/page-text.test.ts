import type { IndexHtmlTransformContext } from 'vite';
import { describe, expect, it } from 'vitest';
import { en } from '../pages/src/text/en.js';
import { tr } from '../pages/src/text/tr.js';
import { pageText } from '../vite/page-text.js';

/*
 * The pages' words: written into the HTML from the English table at build, and the same blanks in
 * every language's table, so a Turkish page fills in what an English one does.
 */

function transform(html: string, table: Record<string, string>): string {
  const hook = pageText(table).transformIndexHtml as {
    handler: (html: string, context: IndexHtmlTransformContext) => string;
  };
  return hook.handler(html, { filename: 'page.html', path: '/page.html' } as IndexHtmlTransformContext);
}

describe('the pages’ words', () => {
  it('fills {{key}} content and attributes from the table, escaped, and marks them for run time', () => {
    const table = { title: 'Fish & chips', hint: 'Behind `gate()` <now>', label: 'The "phone"' };
    const html = transform(
      '<h1 id="t">{{title}}</h1><p class="hint">{{hint}}</p><iframe title="{{label}}"></iframe>',
      table,
    );
    expect(html).toBe(
      '<h1 id="t" data-text="title">Fish &amp; chips</h1>' +
        '<p class="hint" data-text="hint">Behind <code>gate()</code> &lt;now&gt;</p>' +
        '<iframe title="The &quot;phone&quot;" data-text-title="label"></iframe>',
    );
  });

  it('stops the build on a key the table lacks, and on {{key}} that is not a whole content', () => {
    expect(() => transform('<h1>{{missing}}</h1>', {})).toThrow(/no text "missing"/);
    expect(() => transform('<p>Hello {{name}}</p>', { name: 'Ada' })).toThrow(/whole content/);
  });

  it('has every blank of the English in the Turkish (and no other)', () => {
    const blanks = (text: string) => [...text.matchAll(/\{\w+\}|`[^`]*`/g)].map((m) => m[0]).sort();
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      expect(blanks(tr[key]), key).toEqual(blanks(en[key]));
    }
  });
});
