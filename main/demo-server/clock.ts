/** The server clock: the host clock (or an injected one) plus an offset that `/__demo/clock` moves forward. */
export class DemoClock {
  private offsetMs = 0;
  constructor(private readonly base: () => number = Date.now) {}
  now(): number {
    return this.base() + this.offsetMs;
  }
  advance(ms: number): number {
    this.offsetMs += ms;
    return this.now();
  }
  reset(): void {
    this.offsetMs = 0;
  }
}
