import { describe, expect, it } from 'vitest';
import * as widget from '../src/index.js';

describe('public exports', () => {
  it('are the element and the English strings only (types are erased)', () => {
    expect(Object.keys(widget).sort()).toMatchInlineSnapshot(`
      [
        "VerifyIdentity",
        "en",
      ]
    `);
  });

  it('each other language is an entry of its own, @verify-kit/widget/locales/<locale>', async () => {
    const [tr, de, ar] = await Promise.all([
      import('@verify-kit/widget/locales/tr'),
      import('@verify-kit/widget/locales/de'),
      import('@verify-kit/widget/locales/ar'),
    ]);
    expect([tr.tr.start, de.de.start, ar.ar.dir]).toEqual([
      'Doğrulamayı başlat',
      'Überprüfung starten',
      'rtl',
    ]);
  });
});
