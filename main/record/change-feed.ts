import type { RecordNotice } from '../../common/team-review';

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

  /** Wakes every waiting poll (at shutdown), so none holds the process open. */
  close(): void {
    for (const wake of [...this.waiters]) wake();
  }
}
