import { RESYNC_NOTICE, type RecordNotice } from '../../common/team-review';
import type { RecordEvents } from './record-events';

/** Notices kept for long polls that come back late; a poll older than these gets all that is kept. */
const KEPT = 500;

/**
 * The record's notices numbered for the renderer's long poll (`team.changes`): a poll answers at once with what came
 * after its cursor, or waits for the next notice. Numbers restart with the app; a cursor past the newest (from before a
 * restart) is treated as 0, so a renderer that outlived main reloads what it shows instead of waiting forever.
 */
export class ChangeFeed {
  private readonly kept: { seq: number; notice: RecordNotice }[] = [];
  private last = 0;
  private readonly waiters = new Set<() => void>();

  push(notice: RecordNotice): void {
    this.kept.push({ seq: ++this.last, notice });
    if (this.kept.length > KEPT) this.kept.splice(0, this.kept.length - KEPT);
    for (const wake of [...this.waiters]) wake();
  }

  async since(after: number, waitMs: number): Promise<{ cursor: number; notices: RecordNotice[] }> {
    const from = after > this.last ? 0 : after;
    if (this.last === from && waitMs > 0) {
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, waitMs);
        this.waiters.add(wake);
      });
    }
    return { cursor: this.last, notices: this.kept.filter((k) => k.seq > from).map((k) => k.notice) };
  }

  /**
   * Numbers the record's notices from now on; the function returned stops. Waits until they are heard, so the first
   * screens read after it, but at most `waitMs` (a LISTEN that cannot connect must not hold the start): heard later,
   * the screens may have read in between, unannounced, so they are told to read again.
   */
  async follow(events: Pick<RecordEvents, 'subscribe' | 'listening'>, waitMs: number): Promise<() => void> {
    const stop = events.subscribe((notice) => this.push(notice));
    const listening = events.listening().then(() => true);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const inTime = await Promise.race([
      listening,
      new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), waitMs);
        timer.unref?.();
      }),
    ]);
    clearTimeout(timer);
    if (!inTime) void listening.then(() => this.push(RESYNC_NOTICE));
    return stop;
  }

  /** Wakes every waiting poll (at shutdown), so none holds the process open. */
  close(): void {
    for (const wake of [...this.waiters]) wake();
  }
}
