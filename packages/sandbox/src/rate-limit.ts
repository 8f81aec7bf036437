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
    this.#roll();
    const count = (this.counts.get(client) ?? 0) + 1;
    this.counts.set(client, count);
    return count <= this.requests ? undefined : this.#wait();
  }

  /** The seconds to wait when `client` is already over the limit, without counting a request. */
  blocked(client: string): number | undefined {
    this.#roll();
    return (this.counts.get(client) ?? 0) < this.requests ? undefined : this.#wait();
  }

  #roll(): void {
    const now = this.now();
    if (now >= this.windowStart + this.windowMs || now < this.windowStart) {
      this.windowStart = now;
      this.counts = new Map();
    }
  }

  #wait(): number {
    return Math.max(1, Math.ceil((this.windowStart + this.windowMs - this.now()) / 1000));
  }
}
