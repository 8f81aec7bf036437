import { describe, expect, it } from 'vitest';
import { hasStrings, loadStrings, localeOf, shownLocale, stringsOf } from '../src/locales.js';
import { en } from '../src/strings.en.js';
import { tr } from '../src/strings.tr.js';

describe('locale tables', () => {
  it('reads the locale of a language tag, English for an unknown or empty one', () => {
    expect([localeOf('tr-TR'), localeOf('TR'), localeOf('en-GB'), localeOf('fr'), localeOf('')]).toEqual([
      'tr',
      'tr',
      'en',
      'en',
      'en',
    ]);
  });

  it('knows German and Arabic by their language tags', () => {
    expect([localeOf('de-AT'), localeOf('de'), localeOf('ar-EG'), localeOf('AR')]).toEqual([
      'de',
      'de',
      'ar',
      'ar',
    ]);
  });

  it('has English at once and Turkish only once it is loaded', async () => {
    expect(hasStrings('en')).toBe(true);
    expect(stringsOf('en')).toBe(en);
    expect(hasStrings('tr')).toBe(false);
    expect(stringsOf('tr')).toBe(en);
    expect(shownLocale('tr')).toBe('en');
    await loadStrings('tr');
    expect(hasStrings('tr')).toBe(true);
    expect(stringsOf('tr')).toEqual(tr);
    expect(shownLocale('tr')).toBe('tr');
  });
});
