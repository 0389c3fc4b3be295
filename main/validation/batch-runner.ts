import { RateMeter } from './rate';

/**
 * Runs one async task per item with at most `concurrency` in flight. Pause stops starting new items (running
 * ones finish); cancel aborts running ones and leaves the rest unprocessed. A task whose outcome is classified
 * as transient is retried with exponential backoff (or the server's Retry-After) up to `maxAttempts`.
 */

export type Settled<R> = { ok: true; value: R } | { ok: false; error: unknown };

export interface RetryDecision {
  retry: boolean;
  /** Wait this long before the next attempt instead of the computed backoff (e.g. from Retry-After). */
  retryAfterMs?: number;
}

export interface BatchRunnerOptions<T, R> {
  items: readonly T[];
  concurrency: number;
  work: (item: T, signal: AbortSignal) => Promise<R>;
  /** Whether an outcome is transient and worth another attempt. */
  classify: (outcome: Settled<R>) => RetryDecision;
  /** Called once per item with its final outcome (after retries); `index` is the item's position in `items`. */
  onSettled: (index: number, outcome: Settled<R>, attempts: number) => void;
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Injected for tests. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  random?: () => number;
}

export type BatchState = 'running' | 'pausing' | 'paused' | 'cancelled' | 'done';

export interface BatchProgress {
  state: BatchState;
  total: number;
  done: number;
  inFlight: number;
  retries: number;
  rowsPerSecond: number;
  secondsLeft: number | null;
}

export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export class BatchRunner<T, R> {
  private next = 0;
  private doneCount = 0;
  private inFlight = 0;
  private retries = 0;
  private state: BatchState = 'paused';
  private readonly controller = new AbortController();
  private readonly meter = new RateMeter();
  private resolveFinished!: () => void;
  /** Resolves when every item has settled or the batch was cancelled and running tasks have stopped. */
  readonly finished = new Promise<void>((resolve) => (this.resolveFinished = resolve));

  constructor(private readonly opts: BatchRunnerOptions<T, R>) {
    if (!Number.isInteger(opts.concurrency) || opts.concurrency < 1)
      throw new RangeError('concurrency must be a positive integer');
  }

  start(): void {
    if (this.state !== 'paused' || this.next > 0) return;
    this.resume();
  }

  pause(): void {
    if (this.state === 'running') this.state = this.inFlight > 0 ? 'pausing' : 'paused';
  }

  resume(): void {
    if (this.state !== 'paused' && this.state !== 'pausing') return;
    this.state = 'running';
    this.meter.reset();
    this.meter.record(this.doneCount);
    this.fill();
  }

  cancel(): void {
    if (this.state === 'done' || this.state === 'cancelled') return;
    this.state = 'cancelled';
    this.controller.abort(new DOMException('The batch was cancelled.', 'AbortError'));
    if (this.inFlight === 0) this.resolveFinished();
  }

  progress(): BatchProgress {
    const rate =
      this.state === 'running' ? this.meter.snapshot(this.opts.items.length) : { perSecond: 0, secondsLeft: null };
    return {
      state: this.state,
      total: this.opts.items.length,
      done: this.doneCount,
      inFlight: this.inFlight,
      retries: this.retries,
      rowsPerSecond: rate.perSecond,
      secondsLeft: rate.secondsLeft,
    };
  }

  private fill(): void {
    while (this.state === 'running' && this.inFlight < this.opts.concurrency && this.next < this.opts.items.length) {
      const index = this.next++;
      this.inFlight++;
      void this.runItem(index).finally(() => {
        this.inFlight--;
        this.afterItem();
      });
    }
    this.updateState();
  }

  private afterItem(): void {
    this.updateState();
    if (this.state === 'running') this.fill();
  }

  /** Moves to done / paused / finished-cancel once nothing is in flight. */
  private updateState(): void {
    if (this.inFlight > 0) return;
    if (this.state === 'cancelled') this.resolveFinished();
    else if (this.doneCount === this.opts.items.length) {
      this.state = 'done';
      this.resolveFinished();
    } else if (this.state === 'pausing') this.state = 'paused';
  }

  private async runItem(index: number): Promise<void> {
    const { work, classify, maxAttempts = 4, baseDelayMs = 500, maxDelayMs = 15_000 } = this.opts;
    const sleep = this.opts.sleep ?? abortableSleep;
    const random = this.opts.random ?? Math.random;
    const signal = this.controller.signal;
    const item = this.opts.items[index]!;
    let attempts = 0;
    for (;;) {
      attempts++;
      let outcome: Settled<R>;
      try {
        outcome = { ok: true, value: await work(item, signal) };
      } catch (error) {
        outcome = { ok: false, error };
      }
      if (signal.aborted) return;
      const decision = attempts < maxAttempts ? classify(outcome) : { retry: false };
      if (!decision.retry) {
        this.doneCount++;
        this.meter.record(this.doneCount);
        this.opts.onSettled(index, outcome, attempts);
        return;
      }
      this.retries++;
      // Full jitter keeps concurrent retries from hitting the service in step.
      const backoff = Math.min(maxDelayMs, baseDelayMs * 2 ** (attempts - 1)) * (0.5 + random() / 2);
      try {
        await sleep(decision.retryAfterMs ?? backoff, signal);
      } catch {
        return;
      }
    }
  }
}
