export const round = (value: number, digits = 2) => {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
};

/** Nearest-rank percentile; NaN for an empty sample. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

/** The middle value (mean of the two middle ones for an even count); NaN for an empty sample. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * A distribution-free interval around the median (order statistics, the sign test): it holds the
 * true median with at least `confidence`, whatever the spread of the samples. undefined when there
 * are too few samples for that confidence (fewer than 6 at 0.95).
 */
export function medianInterval(
  values: readonly number[],
  confidence = 0.95,
): { low: number; high: number } | undefined {
  const n = values.length;
  const sorted = [...values].sort((a, b) => a - b);
  // The largest k with P(Binomial(n, 1/2) < k) <= (1 - confidence) / 2: [x(k), x(n + 1 - k)].
  let below = 0;
  let term = 0.5 ** n; // P(X = 0)
  let k = 0;
  for (let i = 0; i < n; i++) {
    if (below + term > (1 - confidence) / 2) break;
    below += term;
    term = (term * (n - i)) / (i + 1);
    k = i + 1;
  }
  if (k === 0) return undefined;
  return { low: sorted[k - 1]!, high: sorted[n - k]! };
}

/**
 * Count, median, p95, p99 and max, rounded to 0.1: the one place that turns samples into figures.
 * An empty sample has count 0 and NaN (null in JSON) elsewhere.
 */
export function summarize(values: readonly number[]) {
  return {
    count: values.length,
    median: round(median(values), 1),
    p95: round(percentile(values, 95), 1),
    p99: round(percentile(values, 99), 1),
    max: round(values.length === 0 ? Number.NaN : Math.max(...values), 1),
  };
}
export type Summary = ReturnType<typeof summarize>;

export const mb = (bytes: number) => round(bytes / 2 ** 20, 1);

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Rejects after `ms` with a message naming what took too long. */
export async function withTimeout<T>(what: string, ms: number, run: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([run(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs `count` tasks, at most `concurrency` at once; resolves when all have settled. */
export async function runPool(
  count: number,
  concurrency: number,
  task: (index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(count, concurrency) }, worker));
}

/**
 * `rounds` rounds of every run, the order turning each round (A B C, B C A, C A B, …) so that
 * whatever else the machine does is shared by all: each run's results, round by round.
 */
export async function interleave<T>(rounds: number, runs: readonly (() => Promise<T>)[]): Promise<T[][]> {
  const results = runs.map(() => [] as T[]);
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < runs.length; i++) {
      const which = (i + round) % runs.length;
      results[which]!.push(await runs[which]!());
    }
  }
  return results;
}
