/** The sandbox's clock: a base time source plus an offset that tests move forward. */
export class Clock {
  private offsetMs = 0;

  constructor(private readonly base: () => number = Date.now) {}

  now(): number {
    return this.base() + this.offsetMs;
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }
}
