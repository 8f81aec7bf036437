import { defineConfig, type Plugin, parseSync } from 'vite';

interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

/**
 * Minifies one chunk of a css`` or html`` literal: indentation (never a single space), comments,
 * quotes around simple values, the slash of void elements.
 */
function collapse(tag: string, raw: string): string {
  if (tag === 'css') {
    return raw
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/\s*\n\s*/g, ' ')
      .replace(/ ?([{};,>]) ?/g, '$1')
      .replace(/: /g, ':')
      .replace(/;}/g, '}')
      .replace(/\[([\w-]+~?=)'([\w-]+)'\]/g, '[$1$2]')
      .replace(/([ :(,])0\./g, '$1.')
      .replace(/ ([*/]) /g, '$1')
      .trim();
  }
  return raw
    .replace(/\s*\n\s*/g, (match, index: number) => {
      const before = raw[index - 1];
      const after = raw[index + match.length];
      return before === undefined || after === undefined || before === '>' || after === '<' ? '' : ' ';
    })
    .replace(/="([\w-]+)"/g, '=$1')
    .replace(/ ?\/>/g, '>');
}

/** `css` or `html` for a css`` / html`` literal or an unsafeCSS(`…`) call, else undefined. */
function literalTag(n: Node): 'css' | 'html' | undefined {
  const name = (node: unknown) => (node as { name?: string }).name;
  if (n.type === 'TaggedTemplateExpression') {
    const tag = name(n.tag);
    return tag === 'css' || tag === 'html' ? tag : undefined;
  }
  const [first] = (n.arguments as Node[] | undefined) ?? [];
  return n.type === 'CallExpression' && name(n.callee) === 'unsafeCSS' && first?.type === 'TemplateLiteral'
    ? 'css'
    : undefined;
}

/**
 * Minifies the whitespace of Lit's css`` and html`` templates, and of unsafeCSS(`…`), in our own
 * sources (the minifier keeps template literals as they are). Lit itself is left alone: its templates
 * hold significant newlines.
 */
function minifyLitTemplates(): Plugin {
  return {
    name: 'verify-kit:minify-lit-templates',
    transform(code, id) {
      if (!/\/widget\/src\/.*\.ts$/.test(id)) return null;
      const edits: { start: number; end: number; text: string }[] = [];
      const visit = (node: unknown): void => {
        if (!node || typeof node !== 'object') return;
        if (Array.isArray(node)) {
          for (const item of node) visit(item);
          return;
        }
        const n = node as Node;
        const tag = literalTag(n);
        if (tag) {
          const literal = (n.type === 'CallExpression' ? (n.arguments as Node[])[0] : n.quasi) as Node;
          for (const q of literal.quasis as Node[]) {
            const raw = code.slice(q.start, q.end);
            edits.push({ start: q.start, end: q.end, text: collapse(tag, raw) });
          }
        }
        for (const key of Object.keys(n)) if (key !== 'parent') visit(n[key]);
      };
      visit(parseSync(id, code, { lang: 'ts' }).program);
      let out = code;
      for (const edit of edits.sort((a, b) => b.start - a.start)) {
        out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
      }
      return { code: out, map: null };
    },
  };
}

// The standalone build: one minified ES module with Lit bundled, registering <verify-identity>.
// The tsc build (dist/index.js, Lit external, for bundlers) runs first; this adds one file.
export default defineConfig({
  plugins: [minifyLitTemplates()],
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    target: 'es2022',
    // Terser, then Rolldown's own minifier over its output: 252 B min+gzip less than Rolldown's alone.
    minify: 'terser',
    terserOptions: {
      ecma: 2020,
      // Object.values has no side effect: a call whose result is unused goes, and with it the object
      // (the protocol's PHASES keeps the whole PHASE map alive otherwise).
      compress: { passes: 2, unsafe_arrows: true, pure_funcs: ['Object.values'] },
      // Lit's private members (`_$AH`, `_$Do`…): every user of them is inside this file. Names ending
      // in `$` (`_$litType$`, `_$cssResult$`…) are markers other copies of Lit on the page may read.
      mangle: { properties: { regex: /^_\$[A-Za-z]{2}$/ } },
    },
    sourcemap: false,
    // Vite leaves whitespace in ES libraries (for pure annotations); this file is for browsers only.
    // The strings of other locales than `en` are chunks loaded on demand, served next to it.
    rolldownOptions: {
      output: { minify: true, comments: false, chunkFileNames: 'verify-identity.[name].js' },
    },
    lib: {
      entry: 'src/standalone.ts',
      formats: ['es'],
      fileName: () => 'verify-identity.standalone.js',
    },
  },
});
