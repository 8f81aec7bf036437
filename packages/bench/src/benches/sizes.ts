import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build, loadConfigFromFile, mergeConfig } from 'vite';
import type { Bench } from './bench.js';

const gzipBytes = (code: Buffer) => gzipSync(code, { level: 9 }).length;
const brotliBytes = (code: Buffer) =>
  brotliCompressSync(code, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: code.length },
  }).length;

const widgetRoot = fileURLToPath(new URL('../../../widget/', import.meta.url));

/**
 * Lit as the widget bundles it (sizes/lit-floor.ts), built by the widget's own Vite config: the
 * same minifier, mangling and template minification as verify-identity.standalone.js.
 */
async function bundleLitFloor(): Promise<Buffer> {
  const entry = fileURLToPath(new URL('../sizes/lit-floor.ts', import.meta.url));
  const loaded = await loadConfigFromFile(
    { command: 'build', mode: 'production' },
    `${widgetRoot}vite.config.ts`,
    widgetRoot,
    'silent',
  );
  if (!loaded) throw new Error('the widget has no vite.config.ts');
  // vite sets NODE_ENV=production for the process; the servers forked later must not inherit it.
  const nodeEnv = process.env.NODE_ENV;
  const output = await build(
    mergeConfig(loaded.config, {
      configFile: false,
      logLevel: 'silent',
      root: widgetRoot,
      build: { write: false, lib: { entry } },
    }),
  );
  if (nodeEnv === undefined) delete process.env.NODE_ENV;
  else process.env.NODE_ENV = nodeEnv;
  for (const out of [output].flat()) {
    if (!('output' in out)) continue;
    const chunk = out.output.find((item) => item.type === 'chunk' && item.isEntry);
    if (chunk && 'code' in chunk) return Buffer.from(chunk.code);
  }
  throw new Error('vite produced no chunk for the Lit floor');
}

export const sizesBench: Bench = {
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
      },
      details: {
        file: 'packages/widget/dist/verify-identity.standalone.js',
        strings: 'packages/widget/dist/verify-identity.strings.<locale>.js, next to it',
        litFloor: 'packages/bench/src/sizes/lit-floor.ts, built by packages/widget/vite.config.ts',
        gzipLevel: 9,
        brotliQuality: 11,
      },
    };
  },
};
