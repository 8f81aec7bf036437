import { describe, expect, it } from 'vitest';
import type { ApprovalCriterion, Condition } from '../src/index.js';
import { CONDITIONS, matchCriterion, normalizeForMatch } from '../src/index.js';

const NAME = 'DOCUMENT_OWNER_NAME';

function criterion(condition: Condition, value: string, accentInsensitive?: boolean): ApprovalCriterion {
  return accentInsensitive === undefined
    ? { type: NAME, condition, value }
    : { type: NAME, condition, value, accentInsensitive };
}

describe('normalizeForMatch (docs/architecture.md, decision 7)', () => {
  it.each([
    ['İ', 'i'],
    ['I', 'i'],
    ['ı', 'i'],
    ['i', 'i'],
    ['Ş', 's'],
    ['ş', 's'],
    ['Ç', 'c'],
    ['ç', 'c'],
    ['Ğ', 'g'],
    ['ğ', 'g'],
    ['Ö', 'o'],
    ['ö', 'o'],
    ['Ü', 'u'],
    ['ü', 'u'],
  ])('maps the Turkish letter %s to %s', (letter, latin) => {
    expect(normalizeForMatch(letter)).toBe(latin);
  });

  it.each([
    ['ŞEYMA IŞIK', 'seyma isik'],
    ['İSMAİL', 'ismail'],
    ['ÇAĞLAR GÜNDOĞDU', 'caglar gundogdu'],
    ['ÖZGÜR ÜNLÜ', 'ozgur unlu'],
    ['ılgın', 'ilgin'],
    ['Iğdır', 'igdir'],
    ['JOSÉ NÚÑEZ', 'jose nunez'],
    ['Müller', 'muller'],
    ['Zoë Brontë', 'zoe bronte'],
    // decomposed input (e + U+0301) ends up the same as the precomposed é
    ['Jose\u0301', 'jose'],
    ['  Ayşe \t\t Nur  ', 'ayse nur'],
    ['ayşe\u00a0nur\n', 'ayse nur'],
    ['', ''],
  ])('%j -> %j', (input, expected) => {
    expect(normalizeForMatch(input)).toBe(expected);
  });

  it('never leaves a combining dot behind (İ lower-cases to i + U+0307 in plain JS)', () => {
    expect('İ'.toLowerCase()).toHaveLength(2);
    expect(normalizeForMatch('İSTANBUL')).toBe('istanbul');
    expect(normalizeForMatch('İSTANBUL')).not.toMatch(/\u0307/);
  });
});

describe('matchCriterion, accentInsensitive: true', () => {
  it.each([
    // [condition, criterion value, document field, met]
    ['EQUALS', 'seyma isik', 'ŞEYMA IŞIK', true],
    ['EQUALS', 'ŞEYMA IŞIK', 'seyma isik', true],
    ['EQUALS', 'ismail', 'İSMAİL', true],
    ['EQUALS', 'İSMAİL', 'ismail', true],
    ['EQUALS', 'ısmaıl', 'İSMAİL', true],
    ['EQUALS', 'caglar gundogdu', 'ÇAĞLAR GÜNDOĞDU', true],
    ['EQUALS', 'Çağlar Gündoğdu', 'ÇAĞLAR GÜNDOĞDU', true],
    ['EQUALS', 'ÖMER', 'omer', true],
    ['EQUALS', 'jose', 'JOSÉ', true],
    ['EQUALS', 'Nunez', 'Núñez', true],
    ['EQUALS', 'jurgen muller', 'Jürgen Müller', true],
    ['EQUALS', '  seyma   isik ', 'ŞEYMA\tIŞIK', true],
    ['EQUALS', 'seyma', 'ŞEYMA IŞIK', false],
    ['EQUALS', 'seyma isak', 'ŞEYMA IŞIK', false],
    ['NOT_EQUALS', 'seyma isik', 'ŞEYMA IŞIK', false],
    ['NOT_EQUALS', 'ismail', 'İSMAİL', false],
    ['NOT_EQUALS', 'ayse', 'İSMAİL', true],
    ['CONTAINS', 'gundog', 'ÇAĞLAR GÜNDOĞDU', true],
    ['CONTAINS', 'r g', 'ÇAĞLAR  GÜNDOĞDU', true],
    ['CONTAINS', 'Işık', 'seyma isik', true],
    ['CONTAINS', 'yilmaz', 'ÇAĞLAR GÜNDOĞDU', false],
    ['NOT_CONTAINS', 'yilmaz', 'ÇAĞLAR GÜNDOĞDU', true],
    ['NOT_CONTAINS', 'gundogdu', 'ÇAĞLAR GÜNDOĞDU', false],
    ['STARTS_WITH', 'cag', 'ÇAĞLAR GÜNDOĞDU', true],
    ['STARTS_WITH', 'İsm', 'ismail', true],
    ['STARTS_WITH', 'gun', 'ÇAĞLAR GÜNDOĞDU', false],
    ['ENDS_WITH', 'dogdu', 'ÇAĞLAR GÜNDOĞDU ', true],
    ['ENDS_WITH', 'IŞIK', 'seyma isik', true],
    ['ENDS_WITH', 'seyma', 'ŞEYMA IŞIK', false],
  ] as const)('%s %j against %j -> %s', (condition, value, field, met) => {
    expect(matchCriterion(criterion(condition, value, true), { [NAME]: field })).toBe(met);
  });
});

describe('matchCriterion, accentInsensitive false or omitted: exact code points', () => {
  it.each([
    ['EQUALS', 'ŞEYMA IŞIK', 'ŞEYMA IŞIK', true],
    ['EQUALS', 'seyma isik', 'ŞEYMA IŞIK', false],
    ['EQUALS', 'ŞEYMA IŞIK', 'ŞEYMA  IŞIK', false],
    ['EQUALS', 'ŞEYMA IŞIK', ' ŞEYMA IŞIK', false],
    ['EQUALS', 'İSMAİL', 'ISMAIL', false],
    ['EQUALS', 'ismail', 'İSMAİL', false],
    ['EQUALS', 'JOSÉ', 'JOSE', false],
    // precomposed é vs e + combining acute: different code points
    ['EQUALS', 'Jos\u00e9', 'Jose\u0301', false],
    ['EQUALS', 'Müller', 'müller', false],
    ['NOT_EQUALS', 'seyma isik', 'ŞEYMA IŞIK', true],
    ['NOT_EQUALS', 'ŞEYMA IŞIK', 'ŞEYMA IŞIK', false],
    ['CONTAINS', 'GÜNDOĞDU', 'ÇAĞLAR GÜNDOĞDU', true],
    ['CONTAINS', 'GUNDOGDU', 'ÇAĞLAR GÜNDOĞDU', false],
    ['CONTAINS', 'gündoğdu', 'ÇAĞLAR GÜNDOĞDU', false],
    ['NOT_CONTAINS', 'GUNDOGDU', 'ÇAĞLAR GÜNDOĞDU', true],
    ['NOT_CONTAINS', 'GÜNDOĞDU', 'ÇAĞLAR GÜNDOĞDU', false],
    ['STARTS_WITH', 'ÇAĞ', 'ÇAĞLAR GÜNDOĞDU', true],
    ['STARTS_WITH', 'CAG', 'ÇAĞLAR GÜNDOĞDU', false],
    ['STARTS_WITH', 'ÇAĞ', '\tÇAĞLAR', false],
    ['ENDS_WITH', 'IŞIK', 'ŞEYMA IŞIK', true],
    ['ENDS_WITH', 'ışık', 'ŞEYMA IŞIK', false],
    ['ENDS_WITH', 'IŞIK', 'ŞEYMA IŞIK ', false],
  ] as const)('%s %j against %j -> %s', (condition, value, field, met) => {
    expect(matchCriterion(criterion(condition, value, false), { [NAME]: field })).toBe(met);
    expect(matchCriterion(criterion(condition, value), { [NAME]: field })).toBe(met);
  });
});

describe('matchCriterion, a field we cannot read', () => {
  it.each(CONDITIONS.flatMap((c) => [[c, true] as const, [c, false] as const]))(
    'a missing field never meets %s (accentInsensitive %s)',
    (condition, accentInsensitive) => {
      const c = criterion(condition, 'anything', accentInsensitive);
      expect(matchCriterion(c, {})).toBe(false);
      expect(matchCriterion(c, { [NAME]: undefined })).toBe(false);
      expect(matchCriterion(c, { DOCUMENT_OWNER_SURNAME: 'anything' })).toBe(false);
    },
  );

  it('does not read inherited properties as fields', () => {
    const c: ApprovalCriterion = { type: 'toString', condition: 'NOT_EQUALS', value: 'x' };
    expect(matchCriterion(c, {})).toBe(false);
  });

  it('an unknown condition never meets (fail closed)', () => {
    const c = { type: NAME, condition: 'LOOKS_LIKE', value: 'x' } as unknown as ApprovalCriterion;
    expect(matchCriterion(c, { [NAME]: 'x' })).toBe(false);
  });

  it('an empty field is a field: it equals an empty value', () => {
    expect(matchCriterion(criterion('EQUALS', ''), { [NAME]: '' })).toBe(true);
    expect(matchCriterion(criterion('NOT_EQUALS', 'x'), { [NAME]: '' })).toBe(true);
  });
});
