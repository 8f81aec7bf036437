import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';

const STANDALONE = fileURLToPath(new URL('../dist/verify-identity.standalone.js', import.meta.url));
/** Issue 13: the standalone module, every state and feature included, within 10 KiB min+gzip. */
const BUDGET = 10 * 1024;

// No browser needed: the size of the self-contained module as a <script type="module"> loads it.
test('the standalone module stays within its budget (min+gzip)', () => {
  const code = readFileSync(STANDALONE);
  const gzipped = gzipSync(code, { level: 9 }).length;
  const kib = (n: number) => `${(n / 1024).toFixed(2)} KiB`;
  console.log(
    `verify-identity.standalone.js: ${kib(code.length)} minified, ${kib(gzipped)} (${gzipped} B) min+gzip; ` +
      `budget ${kib(BUDGET)} (${BUDGET} B)`,
  );
  expect(code.toString()).not.toMatch(/\beval\(|new Function\(/);
  expect(gzipped).toBeLessThanOrEqual(BUDGET);
});
