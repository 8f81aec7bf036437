import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';

/** The ceiling today (11,345 B measured: Lit 5,490 B, ours 5,855 B), so nothing grows unnoticed. */
const BUDGET = 11_400;
/**
 * Issue 13's goal: the standalone module, Lit and every feature included, in 10 KiB min+gzip. Not
 * met yet (what is left is unique content: our styles, English strings, views): printed, not
 * asserted, and the issue stays open.
 */
const GOAL = 10 * 1024;
/** The strings of a locale other than `en`, a file loaded only when that locale is shown. */
const LOCALE_BUDGET = 1200;

const gzipped = (file: string) => {
  const code = readFileSync(fileURLToPath(new URL(`../dist/${file}`, import.meta.url)));
  expect(code.toString()).not.toMatch(/\beval\(|new Function\(/);
  const bytes = gzipSync(code, { level: 9 }).length;
  console.log(`${file}: ${code.length} B minified, ${bytes} B min+gzip`);
  return bytes;
};

// No browser needed: the sizes of the files as a <script type="module"> loads them.
test('the standalone module stays within its budget (min+gzip)', () => {
  const bytes = gzipped('verify-identity.standalone.js');
  console.log(`budget ${BUDGET} B, goal ${GOAL} B`);
  expect(bytes).toBeLessThanOrEqual(BUDGET);
});

test('the Turkish strings, loaded on demand, stay within theirs', () => {
  expect(gzipped('verify-identity.strings.tr.js')).toBeLessThanOrEqual(LOCALE_BUDGET);
});
