import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type OptionGroup, optionGroups } from './option-index.js';

const page = fileURLToPath(new URL('../options.md', import.meta.url));

/** The start page's index of every option, read from options.md at build time. */
export default {
  watch: [page],
  load: (): OptionGroup[] => optionGroups(readFileSync(page, 'utf8')),
};

export declare const data: OptionGroup[];
