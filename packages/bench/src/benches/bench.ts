import type { Browser } from 'playwright-core';
import type { Figures } from '../figures.js';

export interface BenchContext {
  /** The shared Chromium, launched on first use. */
  browser(): Promise<Browser>;
  log(message: string): void;
}

export interface BenchOutcome {
  figures: Figures;
  details?: unknown;
}

/** One benchmark's work; the figures it measures are declared in figures.ts. */
export interface Bench {
  timeoutMs: number;
  run(context: BenchContext): Promise<BenchOutcome>;
}
