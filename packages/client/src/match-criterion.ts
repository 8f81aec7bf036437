import type { ApprovalCriterion } from './schemas.js';

/** Document fields keyed by criterion type, e.g. { DOCUMENT_OWNER_NAME: 'ŞEYMA' }. */
export type DocumentFields = Partial<Record<string, string | undefined>>;

// Mapped before NFD and lower-casing: 'İ'.toLowerCase() is 'i' + U+0307 and 'ı' has no NFD
// decomposition, so neither would reach a plain 'i' through Unicode alone.
const TURKISH_TO_LATIN: Readonly<Record<string, string>> = {
  İ: 'i',
  I: 'i',
  ı: 'i',
  i: 'i',
  Ş: 's',
  ş: 's',
  Ç: 'c',
  ç: 'c',
  Ğ: 'g',
  ğ: 'g',
  Ö: 'o',
  ö: 'o',
  Ü: 'u',
  ü: 'u',
};
const TURKISH_LETTERS = /[İIıiŞşÇçĞğÖöÜü]/g;
const COMBINING_MARKS = /\p{M}/gu;
const WHITE_SPACE_RUNS = /\s+/g;

/** docs/architecture.md, decision 7: Turkish letters to Latin, NFD minus marks, lower case, white space collapsed. */
export function normalizeForMatch(value: string): string {
  return value
    .replace(TURKISH_LETTERS, (letter) => TURKISH_TO_LATIN[letter] ?? letter)
    .normalize('NFD')
    .replace(COMBINING_MARKS, '')
    .toLowerCase()
    .replace(WHITE_SPACE_RUNS, ' ')
    .trim();
}

type Condition = ApprovalCriterion['condition'];

const CONDITION_TESTS: Readonly<Record<Condition, (field: string, expected: string) => boolean>> = {
  EQUALS: (field, expected) => field === expected,
  NOT_EQUALS: (field, expected) => field !== expected,
  CONTAINS: (field, expected) => field.includes(expected),
  NOT_CONTAINS: (field, expected) => !field.includes(expected),
  STARTS_WITH: (field, expected) => field.startsWith(expected),
  ENDS_WITH: (field, expected) => field.endsWith(expected),
};

/**
 * true when the document field meets the criterion. A field that is missing (or not a string) never
 * meets one, not even NOT_EQUALS / NOT_CONTAINS: we cannot vouch for what we could not read. An
 * unknown condition never meets one either (fail closed).
 */
export function matchCriterion(criterion: ApprovalCriterion, documentFields: DocumentFields): boolean {
  const field: unknown = Object.hasOwn(documentFields, criterion.type)
    ? documentFields[criterion.type]
    : undefined;
  if (typeof field !== 'string' || typeof criterion.value !== 'string') return false;
  const test = Object.hasOwn(CONDITION_TESTS, criterion.condition)
    ? CONDITION_TESTS[criterion.condition]
    : undefined;
  if (test === undefined) return false;
  return criterion.accentInsensitive === true
    ? test(normalizeForMatch(field), normalizeForMatch(criterion.value))
    : test(field, criterion.value);
}
