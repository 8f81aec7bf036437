import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { LOCALES } from '@verify-kit/protocol';
import { bundle, expect, test } from './fixtures.js';

/**
 * The ceiling, so that nothing grows unnoticed: 11,447 B measured, of which Lit as the widget uses it
 * is 5,570 B. Raised by 50 B (from 11,400) for one thing, on purpose: the holder the widget sends with
 * POST /session (request.ts, issue 40), which closes the planted-cookie fixation without server state.
 */
const BUDGET = 11_450;
/**
 * Issue 13's goal, 10 KiB for the module with Lit and every feature, is not met and is printed, not
 * asserted. Lit's default build is already its smallest; forking its renderer (measured: 10,647 B)
 * or moving required features out of the module would be the only ways there. See BENCHMARKS.md.
 */
const GOAL = 10 * 1024;
/** The strings of a locale other than `en`, a file loaded only when that locale is shown. */
const LOCALE_BUDGET = 1200;
/**
 * An integrator's Vite build of a page using only the element (element-only.ts): Lit, the element and
 * English, 12,587 B measured (issue 34: 15,585 B while the main entry re-exported every language).
 */
const BUNDLED_BUDGET = 12_700;

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

/** Every locale but English: each a file of its own, loaded on demand. */
const OTHERS = LOCALES.filter((locale) => locale !== 'en');

for (const locale of OTHERS) {
  test(`the strings of ${locale}, loaded on demand, stay within theirs`, () => {
    expect(gzipped(`verify-identity.strings.${locale}.js`)).toBeLessThanOrEqual(LOCALE_BUDGET);
  });
}

test('a page bundling the element carries English only: each other language is a chunk of its own', async () => {
  const { code, chunks } = await bundle('element-only.ts');
  const bytes = gzipSync(code, { level: 9 }).length;
  console.log(`element-only.ts, bundled by Vite: ${code.length} B minified, ${bytes} B min+gzip`);
  expect(chunks.sort()).toEqual(OTHERS.map((locale) => `strings.${locale}`).sort());
  expect(bytes).toBeLessThanOrEqual(BUNDLED_BUDGET);
});
