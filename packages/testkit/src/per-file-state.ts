// Vitest's setup file (packages/vitest.config.ts): where a worker's test files share one module
// registry, each file still starts with the log lines and the browser responses of its own, as
// `logLines.some(…)` and `expectKeyNeverLeaked` assume: another file's can neither satisfy nor fail them.
import { beforeAll } from 'vitest';
import { transcript } from './browser.js';
import { logLines } from './leaks.js';

beforeAll(() => {
  logLines.length = 0;
  transcript.length = 0;
});
