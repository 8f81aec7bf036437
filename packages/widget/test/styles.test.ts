import { describe, expect, it } from 'vitest';
import { styles } from '../src/verify-identity.styles.js';

describe('the styles', () => {
  it('name no physical side: the layout mirrors in a right-to-left language (logical properties only)', () => {
    expect(styles.cssText).not.toMatch(/left|right/i);
  });
});
