import type { Browser } from 'playwright-core';
import type { Figures } from '../report/figures.js';

export interface BenchContext {
  /** The shared Chromium, launched on first use. */
  browser(): Promise<Browser>;
  log(message: string): void;
}

export interface BenchOutcome {
  figures: Figures;
  details?: unknown;
}

/** One benchmark's work; its name and figure keys are in registry.ts. */
export interface Bench {
  timeoutMs: number;
  run(context: BenchContext): Promise<BenchOutcome>;
}
