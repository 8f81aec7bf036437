/** A fixed-window request counter per client address (DESIGN.md decision 14). */
export class RateLimiter {
  private windowStart = Number.NEGATIVE_INFINITY;
  private counts = new Map<string, number>();

  constructor(
    private readonly requests: number,
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  /** Counts one request; answers the seconds to wait when over the limit, else undefined. */
  hit(client: string): number | undefined {
    const now = this.now();
    if (now >= this.windowStart + this.windowMs || now < this.windowStart) {
      this.windowStart = now;
      this.counts = new Map();
    }
    const count = (this.counts.get(client) ?? 0) + 1;
    this.counts.set(client, count);
    if (count <= this.requests) return undefined;
    return Math.max(1, Math.ceil((this.windowStart + this.windowMs - now) / 1000));
  }
}
