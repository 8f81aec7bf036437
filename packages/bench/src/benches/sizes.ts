import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'vite';
import type { Bench } from './bench.js';

function sizes(code: Buffer) {
  return {
    minBytes: code.length,
    gzipBytes: gzipSync(code, { level: 9 }).length,
    brotliBytes: brotliCompressSync(code, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: code.length },
    }).length,
  };
}

/** Lit bundled alone the way the widget's standalone module is built (vite lib mode, ES, minified). */
async function bundleLit(): Promise<Buffer> {
  const entry = fileURLToPath(new URL('../sizes/lit-entry.ts', import.meta.url));
  // vite sets NODE_ENV=production for the process; the servers forked later must not inherit it.
  const nodeEnv = process.env.NODE_ENV;
  const output = await build({
    configFile: false,
    logLevel: 'silent',
    root: fileURLToPath(new URL('../..', import.meta.url)),
    build: {
      write: false,
      target: 'es2022',
      minify: true,
      sourcemap: false,
      rolldownOptions: { output: { minify: true, comments: false } },
      lib: { entry, formats: ['es'], fileName: () => 'lit.js' },
    },
  });
  if (nodeEnv === undefined) delete process.env.NODE_ENV;
  else process.env.NODE_ENV = nodeEnv;
  const outputs = Array.isArray(output) ? output : [output];
  for (const out of outputs) {
    if (!('output' in out)) continue;
    const chunk = out.output.find((item) => item.type === 'chunk');
    if (chunk && 'code' in chunk) return Buffer.from(chunk.code);
  }
  throw new Error('vite produced no chunk for lit');
}

export const sizesBench: Bench = {
  timeoutMs: 60_000,
  async run() {
    const standalone = fileURLToPath(import.meta.resolve('@verify-kit/widget/standalone'));
    const widget = sizes(await readFile(standalone));
    const lit = sizes(await bundleLit());
    return {
      figures: {
        'widget.standalone.minBytes': widget.minBytes,
        'widget.standalone.gzipBytes': widget.gzipBytes,
        'widget.standalone.brotliBytes': widget.brotliBytes,
        'lit.minBytes': lit.minBytes,
        'lit.gzipBytes': lit.gzipBytes,
        'lit.brotliBytes': lit.brotliBytes,
      },
      details: {
        file: 'packages/widget/dist/verify-identity.standalone.js',
        gzipLevel: 9,
        brotliQuality: 11,
      },
    };
  },
};
