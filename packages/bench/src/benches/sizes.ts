import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build, type InlineConfig, loadConfigFromFile, mergeConfig } from 'vite';
import type { Bench } from './bench.js';

const gzipBytes = (code: Buffer) => gzipSync(code, { level: 9 }).length;
const brotliBytes = (code: Buffer) =>
  brotliCompressSync(code, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: code.length },
  }).length;

const widgetRoot = fileURLToPath(new URL('../../../widget/', import.meta.url));

/** The entry chunk of a Vite build of `config`, made in memory. */
async function buildEntry(config: InlineConfig): Promise<Buffer> {
  // vite sets NODE_ENV=production for the process; the servers forked later must not inherit it.
  const nodeEnv = process.env.NODE_ENV;
  const output = await build(
    mergeConfig(config, { configFile: false, logLevel: 'silent', build: { write: false } }),
  );
  if (nodeEnv === undefined) delete process.env.NODE_ENV;
  else process.env.NODE_ENV = nodeEnv;
  for (const out of [output].flat()) {
    if (!('output' in out)) continue;
    const chunk = out.output.find((item) => item.type === 'chunk' && item.isEntry);
    if (chunk && 'code' in chunk) return Buffer.from(chunk.code);
  }
  throw new Error('vite produced no entry chunk');
}

/**
 * Lit as the widget bundles it (sizes/lit-floor.ts), built by the widget's own Vite config: the
 * same minifier, mangling and template minification as verify-identity.standalone.js.
 */
async function bundleLitFloor(): Promise<Buffer> {
  const loaded = await loadConfigFromFile(
    { command: 'build', mode: 'production' },
    `${widgetRoot}vite.config.ts`,
    widgetRoot,
    'silent',
  );
  if (!loaded) throw new Error('the widget has no vite.config.ts');
  return buildEntry(
    mergeConfig(loaded.config, {
      root: widgetRoot,
      build: { lib: { entry: fileURLToPath(new URL('../sizes/lit-floor.ts', import.meta.url)) } },
    }),
  );
}

/**
 * An integrator's page that uses only the element (the widget's test-browser/element-only.ts, also
 * its size test's), built by Vite with its defaults; `@verify-kit/widget` resolves to its published
 * files. The page's main chunk: Lit included, every language but English left to chunks of its own.
 */
function bundleElementOnly(): Promise<Buffer> {
  const input = `${widgetRoot}test-browser/element-only.ts`;
  return buildEntry({ root: widgetRoot, build: { rolldownOptions: { input } } });
}

export const bench: Bench = {
  timeoutMs: 60_000,
  async run() {
    const standalonePath = import.meta.resolve('@verify-kit/widget/standalone');
    const standalone = await readFile(fileURLToPath(standalonePath));
    const strings = async (locale: string) =>
      gzipBytes(
        await readFile(fileURLToPath(new URL(`verify-identity.strings.${locale}.js`, standalonePath))),
      );
    const lit = gzipBytes(await bundleLitFloor());
    const widget = gzipBytes(standalone);
    const bundled = gzipBytes(await bundleElementOnly());
    return {
      figures: {
        'widget.standalone.minBytes': standalone.length,
        'widget.standalone.gzipBytes': widget,
        'widget.standalone.brotliBytes': brotliBytes(standalone),
        'widget.split.litGzipBytes': lit,
        'widget.split.ownGzipBytes': widget - lit,
        'widget.strings.tr.gzipBytes': await strings('tr'),
        'widget.strings.de.gzipBytes': await strings('de'),
        'widget.strings.ar.gzipBytes': await strings('ar'),
        'widget.bundled.mainGzipBytes': bundled,
      },
      details: {
        file: 'packages/widget/dist/verify-identity.standalone.js',
        strings: 'packages/widget/dist/verify-identity.strings.<locale>.js, next to it',
        litFloor: 'packages/bench/src/sizes/lit-floor.ts, built by packages/widget/vite.config.ts',
        bundled:
          'packages/widget/test-browser/element-only.ts, built by Vite with its defaults: the main chunk',
        gzipLevel: 9,
        brotliQuality: 11,
      },
    };
  },
};
