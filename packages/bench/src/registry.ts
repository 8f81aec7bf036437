import type { Bench } from './benches/bench.js';
import type { FigureKey } from './report/figures.js';

export interface BenchEntry {
  name: string;
  /** The figures it produces; all null (with the reason) when it fails, times out or cannot load. */
  keys: readonly FigureKey[];
  /** Uses Chromium (closed once no remaining benchmark needs it). */
  usesBrowser?: boolean;
  /** Loaded when its turn comes, so that one package's broken build nulls only its own figures. */
  load(): Promise<Bench>;
}

export const BENCHES: readonly BenchEntry[] = [
  {
    name: 'sizes',
    keys: [
      'widget.standalone.minBytes',
      'widget.standalone.gzipBytes',
      'widget.standalone.brotliBytes',
      'lit.minBytes',
      'lit.gzipBytes',
      'lit.brotliBytes',
    ],
    load: async () => (await import('./benches/sizes.js')).sizesBench,
  },
  {
    name: 'click-to-qr',
    keys: ['ui.clickToQrMs'],
    usesBrowser: true,
    load: async () => (await import('./benches/click-to-qr.js')).clickToQrBench,
  },
  {
    name: 'push',
    keys: ['push.decisionToUiMs'],
    usesBrowser: true,
    load: async () => (await import('./benches/push.js')).pushBench,
  },
  {
    name: 'gate',
    keys: ['gate.throughputRatio.reread', 'gate.throughputRatio.cached'],
    load: async () => (await import('./benches/gate.js')).gateBench,
  },
  {
    name: 'coalescing',
    keys: ['gate.coalescing.upstreamCallsPer100', 'status.upstreamCallsPerPollWindow'],
    load: async () => (await import('./benches/coalescing.js')).coalescingBench,
  },
  {
    name: 'client',
    keys: ['client.throughputRatioVsUndici'],
    load: async () => (await import('./benches/client.js')).clientBench,
  },
  {
    name: 'create',
    keys: ['sandbox.createPerSec', 'kit.createRatioVsDirect'],
    load: async () => (await import('./benches/create.js')).createBench,
  },
  {
    name: 'memory',
    keys: ['memory.kit.rssMB', 'memory.sandbox.rssMB'],
    load: async () => (await import('./benches/memory.js')).memoryBench,
  },
];
