import type { Vault } from '../auth/vault';
import type { Frozen, JsonStore } from '../json-store';
import type { SessionStatus } from '../../common/omni';
import type { AddResult, ImportProblem, LocalReviewState, QueueEntry } from '../../common/ipc/queue';
import type { ImportItem } from './import';
import { ReviewError } from '../errors';

/** What the queue needs from the vault: session tokens go in, only their presence comes out. */
export type SessionTokenStore = Pick<
  Vault,
  'setSessionToken' | 'setSessionTokens' | 'hasSessionToken' | 'clearSessionToken'
>;

/** When each interview of an environment was last opened, as a lookup by id (the audit trail records every opening). */
export type OpenedTimes = (environmentId: string) => Promise<(interviewId: string) => string | undefined>;

type StoredEntry = Omit<QueueEntry, 'hasSessionToken'>;
type StoredQueue = Record<string, StoredEntry>;

/** How stale the time a session status was last seen may get before seeing it again is written. */
export const SEEN_REFRESH_MS = 5 * 60_000;

export const notInQueue = (interviewId: string) =>
  new ReviewError(
    'NOT_IN_QUEUE',
    {
      en: `Interview ${interviewId} is not in the review queue.`,
      es: `La entrevista ${interviewId} no está en la bandeja de revisión.`,
    },
    {
      en: 'Add it to the queue first.',
      es: 'Agrégala primero a la bandeja.',
    },
  );

const nothingToRestore = (interviewId: string) =>
  new ReviewError(
    'NOTHING_TO_RESTORE',
    {
      en: `Interview ${interviewId} was not removed from the queue in this session.`,
      es: `La entrevista ${interviewId} no se quitó de la bandeja en esta sesión.`,
    },
    {
      en: 'Add it to the queue again by its id.',
      es: 'Vuelve a agregarla a la bandeja con su id.',
    },
  );

/**
 * The analyst's own work list, one per environment (the service has no endpoint listing interviews).
 * Kept in the JSON store, so it survives restarts in both shells.
 *
 * When an interview was last opened is read from the audit trail, which records every opening, rather than stored
 * here too: the queue's file is rewritten whole with each change, so stamping it at every opening cost an opening
 * ~20 ms at 5,000 interviews and ~50 ms at 20,000. Entries of earlier versions keep the time they stored.
 */
export class ReviewQueue {
  constructor(
    private readonly store: JsonStore,
    private readonly tokens: SessionTokenStore,
    private readonly environmentId: () => string,
    private readonly openedTimes: OpenedTimes,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private key() {
    return `review.queue.${this.environmentId()}`;
  }

  /** The stored queue itself (frozen): changes go to a copy that `write` stores. */
  private read(): Frozen<StoredQueue> {
    const raw = this.store.peek<StoredQueue>(this.key());
    return raw && typeof raw === 'object' ? raw : {};
  }

  private write(queue: StoredQueue) {
    this.store.set(this.key(), queue);
  }

  private async view(
    entry: Frozen<StoredEntry>,
    openedAt: (interviewId: string) => string | undefined,
  ): Promise<QueueEntry> {
    const stored = entry.lastOpenedAt;
    const recorded = openedAt(entry.interviewId);
    const lastOpenedAt = stored && recorded ? (stored > recorded ? stored : recorded) : (recorded ?? stored);
    return {
      ...entry,
      ...(lastOpenedAt ? { lastOpenedAt } : {}),
      hasSessionToken: await this.tokens.hasSessionToken(this.environmentId(), entry.interviewId),
    };
  }

  private async viewOne(entry: Frozen<StoredEntry>): Promise<QueueEntry> {
    return this.view(entry, await this.openedTimes(this.environmentId()));
  }

  async list(): Promise<QueueEntry[]> {
    const entries = Object.values(this.read()).sort(
      (a, b) => a.addedAt.localeCompare(b.addedAt) || a.interviewId.localeCompare(b.interviewId),
    );
    const openedAt = await this.openedTimes(this.environmentId());
    return Promise.all(entries.map((e) => this.view(e, openedAt)));
  }

  /** Whether the interview is in the queue, without building its view (token and trail look-ups). */
  has(interviewId: string): boolean {
    return this.read()[interviewId] !== undefined;
  }

  async get(interviewId: string): Promise<QueueEntry | undefined> {
    const entry = this.read()[interviewId];
    return entry ? this.viewOne(entry) : undefined;
  }

  async require(interviewId: string): Promise<QueueEntry> {
    const entry = await this.get(interviewId);
    if (!entry) throw notInQueue(interviewId);
    return entry;
  }

  async add(
    items: (ImportItem & { label?: string; labelEs?: string; sessionStatus?: SessionStatus })[],
    problems: ImportProblem[] = [],
  ): Promise<AddResult> {
    const queue: StoredQueue = { ...this.read() };
    const added: string[] = [];
    const updated: string[] = [];
    const tokens: { interviewId: string; token: string }[] = [];
    const at = this.now().toISOString();
    for (const item of items) {
      const stored = queue[item.interviewId];
      if (stored) {
        updated.push(item.interviewId);
        const existing = (queue[item.interviewId] = { ...stored });
        if (item.label && !existing.label) existing.label = item.label;
        if (item.labelEs && !existing.labelEs) existing.labelEs = item.labelEs;
        if (item.sessionStatus && !existing.sessionStatus) {
          existing.sessionStatus = item.sessionStatus;
          existing.sessionStatusSeenAt = at;
        }
      } else {
        added.push(item.interviewId);
        queue[item.interviewId] = {
          interviewId: item.interviewId,
          addedAt: at,
          localState: 'toReview',
          ...(item.label ? { label: item.label } : {}),
          ...(item.labelEs ? { labelEs: item.labelEs } : {}),
          ...(item.sessionStatus ? { sessionStatus: item.sessionStatus, sessionStatusSeenAt: at } : {}),
        };
      }
      if (item.sessionToken) tokens.push({ interviewId: item.interviewId, token: item.sessionToken });
    }
    // One write for every token of an import: one each rewrote the vault's file once per row.
    await this.tokens.setSessionTokens(this.environmentId(), tokens);
    this.write(queue);
    return { added, updated, tokensAttached: tokens.length, problems };
  }

  /**
   * Entries removed in this run, by environment and id, so a removal can be undone with everything the entry held
   * (local state, label, dates). Only the entry leaves: its session token, drafts and audit trail stay.
   */
  private readonly removed = new Map<string, StoredEntry>();

  private removedKey(interviewId: string) {
    return `${this.environmentId()}\n${interviewId}`;
  }

  async remove(interviewId: string): Promise<boolean> {
    const queue: StoredQueue = { ...this.read() };
    const entry = queue[interviewId];
    if (!entry) return false;
    delete queue[interviewId];
    this.write(queue);
    this.removed.set(this.removedKey(interviewId), entry);
    return true;
  }

  /** Puts back an entry removed in this run, as it was. */
  async restore(interviewId: string): Promise<QueueEntry> {
    const key = this.removedKey(interviewId);
    const entry = this.removed.get(key);
    if (!entry) throw nothingToRestore(interviewId);
    // Added again meanwhile (a link, an import): that newer entry stays.
    if (!this.read()[interviewId]) this.write({ ...this.read(), [interviewId]: entry });
    this.removed.delete(key);
    return this.viewOne(this.read()[interviewId]!);
  }

  private async update(interviewId: string, change: (e: StoredEntry) => void): Promise<QueueEntry> {
    const stored = this.read()[interviewId];
    if (!stored) throw notInQueue(interviewId);
    const entry: StoredEntry = { ...stored };
    change(entry);
    this.write({ ...this.read(), [interviewId]: entry });
    return this.viewOne(entry);
  }

  setState(interviewId: string, state: LocalReviewState) {
    return this.update(interviewId, (e) => {
      e.localState = state;
    });
  }

  /**
   * Opening moves a to-review interview to in-review; a decided one stays decided. Nothing else is written: the time
   * of the opening is the audit trail's entry for it.
   */
  async markOpened(interviewId: string): Promise<void> {
    const stored = this.read()[interviewId];
    if (!stored) throw notInQueue(interviewId);
    if (stored.localState !== 'toReview') return;
    await this.update(interviewId, (e) => {
      e.localState = 'inReview';
    });
  }

  /**
   * Called with every response that carries a session status; the header shows the latest. Seeing the same status
   * again is written only when the last sighting is older than SEEN_REFRESH_MS: every write rewrites the whole
   * queue file, and the panels of one opening see the status two or three times.
   */
  async recordStatus(interviewId: string, status: SessionStatus | undefined): Promise<void> {
    const entry = status && this.read()[interviewId];
    if (!entry) return;
    const seenAt = entry.sessionStatusSeenAt ? Date.parse(entry.sessionStatusSeenAt) : NaN;
    if (entry.sessionStatus === status && this.now().getTime() - seenAt < SEEN_REFRESH_MS) return;
    await this.update(interviewId, (e) => {
      e.sessionStatus = status;
      e.sessionStatusSeenAt = this.now().toISOString();
    });
  }

  async attachToken(interviewId: string, token: string) {
    await this.require(interviewId);
    await this.tokens.setSessionToken(this.environmentId(), interviewId, token);
    return this.require(interviewId);
  }

  async clearToken(interviewId: string) {
    await this.require(interviewId);
    await this.tokens.clearSessionToken(this.environmentId(), interviewId);
    return this.require(interviewId);
  }
}
