// The entries of options.md, read from its headings: the start page lists them (option-index.data.ts)
// and docs/test checks them against the options' schemas.

/** One option's entry: `### \`name\`` (level 3) or `#### \`parent.child\`` (level 4). */
export interface OptionEntry {
  /** The option's name as the heading's first code span writes it, e.g. `sessionLimit.perClient`. */
  name: string;
  /** The heading's text as it reads, e.g. `freshness (gate)`. */
  label: string;
  /** The heading's anchor on the options page. */
  anchor: string;
  level: 3 | 4;
}

/** A `##` section of the page and the entries under it. */
export interface OptionGroup {
  title: string;
  anchor: string;
  entries: OptionEntry[];
}

// VitePress's slugify (@mdit-vue/shared), which makes the headings' anchors (its removal of control
// characters left out: a heading holds none).
const SPECIAL = /[\s~`!@#$%^&*()\-_+=[\]{}|\\;:"'“”‘’<>,.?/]+/g;
export const slugify = (text: string): string =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036F]/g, '')
    .replace(SPECIAL, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '')
    .replace(/^(\d)/, '_$1')
    .toLowerCase();

/** The page's groups and entries, in order; headings inside fenced blocks are not headings. */
export function optionGroups(markdown: string): OptionGroup[] {
  const groups: OptionGroup[] = [];
  const prose = markdown.replace(/^```[\s\S]*?^```$/gm, '');
  for (const match of prose.matchAll(/^(#{2,4}) (.+?)(?: \{#([\w-]+)\})?$/gm)) {
    const [, hashes = '', heading = '', id] = match;
    const label = heading.replace(/`/g, '');
    const anchor = id ?? slugify(label);
    if (hashes.length === 2) {
      groups.push({ title: label, anchor, entries: [] });
      continue;
    }
    const name = /^`([^`]+)`/.exec(heading)?.[1];
    const group = groups.at(-1);
    if (name === undefined || group === undefined) {
      throw new Error(`options.md: "${heading}" names no option (an entry's heading begins with \`name\`)`);
    }
    group.entries.push({ name, label, anchor, level: hashes.length === 3 ? 3 : 4 });
  }
  return groups;
}
