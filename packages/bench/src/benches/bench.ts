import type { Browser } from 'playwright-core';
import type { FigureKey, Figures } from '../report/figures.js';

export interface BenchContext {
  /** The shared Chromium, launched on first use. */
  browser(): Promise<Browser>;
  log(message: string): void;
}

export interface BenchOutcome {
  figures: Figures;
  details?: unknown;
}

/** One benchmark: the figures it produces; on failure or timeout they are reported as null. */
export interface Bench {
  name: string;
  keys: readonly FigureKey[];
  timeoutMs: number;
  /** Uses Chromium (it is closed once no remaining benchmark needs it). */
  usesBrowser?: boolean;
  run(context: BenchContext): Promise<BenchOutcome>;
}
