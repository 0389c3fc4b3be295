/**
 * Rate and time-left for long work (uploads, batches). The rate is measured over a sliding window so it follows
 * changes (a pause, a slow network) instead of averaging the whole run.
 */
export interface RateSnapshot {
  /** Units per second over the recent window; 0 until there is enough to measure. */
  perSecond: number;
  /** Seconds left at that rate; null when unknown. */
  secondsLeft: number | null;
}

export class RateMeter {
  private samples: { at: number; done: number }[] = [];

  constructor(
    private readonly windowMs = 5_000,
    private readonly now: () => number = () => Date.now(),
  ) {}

  record(done: number): void {
    const at = this.now();
    this.samples.push({ at, done });
    const cutoff = at - this.windowMs;
    // Keep one sample older than the window so the window is always spanned.
    while (this.samples.length > 2 && this.samples[1]!.at <= cutoff) this.samples.shift();
  }

  /** Forget history, e.g. after a pause, so idle time does not drag the rate down. */
  reset(): void {
    this.samples = [];
  }

  snapshot(total: number): RateSnapshot {
    const first = this.samples[0];
    const last = this.samples[this.samples.length - 1];
    // Measured up to now, so a stall shows as a falling rate rather than a frozen one.
    const elapsed = this.now() - (first?.at ?? 0);
    if (!first || !last || elapsed < 200) return { perSecond: 0, secondsLeft: null };
    const perSecond = ((last.done - first.done) * 1000) / elapsed;
    if (perSecond <= 0) return { perSecond: 0, secondsLeft: null };
    return { perSecond, secondsLeft: Math.max(0, (total - last.done) / perSecond) };
  }
}
