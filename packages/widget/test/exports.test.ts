import { describe, expect, it } from 'vitest';
import * as widget from '../src/index.js';

describe('public exports', () => {
  it('are the element and the string tables only (types are erased)', () => {
    expect(Object.keys(widget).sort()).toMatchInlineSnapshot(`
      [
        "VerifyIdentity",
        "ar",
        "de",
        "en",
        "tr",
      ]
    `);
  });
});
