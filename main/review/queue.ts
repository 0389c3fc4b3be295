import type { Vault } from '../auth/vault';
import { cursorOf, type StoredEntry } from '../record/queue-records';
import type { ReviewRecord } from '../ports';
import type { SessionStatus } from '../../common/omni';
import type {
  AddResult,
  ImportProblem,
  LocalReviewState,
  QueueCounts,
  QueueScope,
  QueueCursor,
  QueueEntry,
  QueueNeighbours,
  QueuePage,
  QueueQuery,
} from '../../common/ipc/queue';
import type { ImportItem } from './import';
import { ReviewError } from '../errors';
import { otherInterviewOfToken } from '../../common/session-token';
import { tokenOfOtherInterview } from './errors';

/** What the queue needs from the vault: session tokens go in, only their presence comes out. */
export type SessionTokenStore = Pick<
  Vault,
  'setSessionToken' | 'setSessionTokens' | 'hasSessionToken' | 'clearSessionToken'
>;

/** When each interview of an environment was last opened, as a lookup by id (the audit trail records every opening). */
export type OpenedTimes = (
  environmentId: string,
  interviewIds?: readonly string[],
) => Promise<(interviewId: string) => string | undefined>;

/** Which of these interviews (all of the environment's when none are named) have a proposal waiting. */
export type Proposals = (environmentId: string, interviewIds?: readonly string[]) => Promise<Set<string>>;

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
 * The analyst's own work list, one per environment (the service has no endpoint listing interviews), in the review
 * record. When an interview was last opened is read from the audit trail, which records every opening; entries of
 * versions that stamped it in the queue keep the time they stored.
 */
export class ReviewQueue {
  constructor(
    private readonly records: ReviewRecord['queue'],
    private readonly tokens: SessionTokenStore,
    private readonly environmentId: () => string,
    private readonly openedTimes: OpenedTimes,
    private readonly now: () => Date = () => new Date(),
    /** Which interviews have a proposal waiting for a second reviewer (all of the environment's when none named). */
    private readonly proposals: Proposals = async () => new Set(),
  ) {}

  private async view(
    entry: StoredEntry,
    openedAt: (interviewId: string) => string | undefined,
    proposed: Set<string>,
  ): Promise<QueueEntry> {
    const stored = entry.lastOpenedAt;
    const recorded = openedAt(entry.interviewId);
    const lastOpenedAt = stored && recorded ? (stored > recorded ? stored : recorded) : (recorded ?? stored);
    return {
      ...entry,
      ...(lastOpenedAt ? { lastOpenedAt } : {}),
      hasSessionToken: await this.tokens.hasSessionToken(this.environmentId(), entry.interviewId),
      ...(proposed.has(entry.interviewId) ? { awaitingSecondReview: true as const } : {}),
    };
  }

  /** What a row shows beside the record's entry, looked up for these rows alone (all when none are named). */
  private decorations(env: string, ids?: string[]) {
    return Promise.all([this.openedTimes(env, ids), this.proposals(env, ids)]);
  }

  private async viewOne(entry: StoredEntry): Promise<QueueEntry> {
    return this.view(entry, ...(await this.decorations(this.environmentId(), [entry.interviewId])));
  }

  async list(): Promise<QueueEntry[]> {
    const env = this.environmentId();
    const [entries, [openedAt, proposed]] = await Promise.all([this.records.list(env), this.decorations(env)]);
    return Promise.all(entries.map((e) => this.view(e, openedAt, proposed)));
  }

  /**
   * One page of the queue screen: the record reads one row more than asked to know whether a page follows, and each
   * row's last opening is looked up for this page's rows alone.
   */
  async page(query: QueueQuery, after: QueueCursor | undefined, limit: number): Promise<QueuePage> {
    const env = this.environmentId();
    const read = await this.records.page(env, query, after, limit + 1);
    const rows = read.slice(0, limit);
    const [openedAt, proposed] = await this.decorations(
      env,
      rows.map((e) => e.interviewId),
    );
    const views = await Promise.all(rows.map((e) => this.view(e, openedAt, proposed)));
    return read.length > limit ? { rows: views, next: cursorOf(query.sort, rows.at(-1)!) } : { rows: views };
  }

  /** The entries of these interviews as the screen shows them, by id; ids not in the queue are left out. */
  async views(interviewIds: string[]): Promise<Map<string, QueueEntry>> {
    const env = this.environmentId();
    const [stored, [openedAt, proposed]] = await Promise.all([
      this.records.getMany(env, interviewIds),
      this.decorations(env, interviewIds),
    ]);
    const views = await Promise.all([...stored.values()].map((e) => this.view(e, openedAt, proposed)));
    return new Map(views.map((v) => [v.interviewId, v]));
  }

  /** The ids of a view of the queue, in its order, up to `limit`. */
  async ids(query: QueueQuery, limit: number): Promise<string[]> {
    const rows = await this.records.page(this.environmentId(), query, undefined, limit);
    return rows.map((e) => e.interviewId);
  }

  counts(search?: string, scope?: QueueScope): Promise<QueueCounts> {
    return this.records.counts(this.environmentId(), search, scope);
  }

  neighbours(interviewId: string, query: QueueQuery): Promise<QueueNeighbours> {
    return this.records.neighbours(this.environmentId(), interviewId, query);
  }

  /** Whether the interview is in the queue, without building its view (token and trail look-ups). */
  async has(interviewId: string): Promise<boolean> {
    return (await this.records.get(this.environmentId(), interviewId)) !== undefined;
  }

  async get(interviewId: string): Promise<QueueEntry | undefined> {
    const entry = await this.records.get(this.environmentId(), interviewId);
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
    const env = this.environmentId();
    for (const item of items) refuseOtherInterviewsToken(item.interviewId, item.sessionToken);
    const existing = await this.records.getMany(
      env,
      items.map((i) => i.interviewId),
    );
    const changed = new Map<string, StoredEntry>();
    const added: string[] = [];
    const updated: string[] = [];
    const tokens: { interviewId: string; token: string }[] = [];
    const at = this.now().toISOString();
    for (const item of items) {
      const stored = changed.get(item.interviewId) ?? existing.get(item.interviewId);
      if (stored) {
        updated.push(item.interviewId);
        const entry = { ...stored };
        if (item.label && !entry.label) entry.label = item.label;
        if (item.labelEs && !entry.labelEs) entry.labelEs = item.labelEs;
        if (item.sessionStatus && !entry.sessionStatus) {
          entry.sessionStatus = item.sessionStatus;
          entry.sessionStatusSeenAt = at;
        }
        changed.set(item.interviewId, entry);
      } else {
        added.push(item.interviewId);
        changed.set(item.interviewId, {
          interviewId: item.interviewId,
          addedAt: at,
          localState: 'toReview',
          ...(item.label ? { label: item.label } : {}),
          ...(item.labelEs ? { labelEs: item.labelEs } : {}),
          ...(item.sessionStatus ? { sessionStatus: item.sessionStatus, sessionStatusSeenAt: at } : {}),
        });
      }
      if (item.sessionToken) tokens.push({ interviewId: item.interviewId, token: item.sessionToken });
    }
    // One write for every token of an import: one each rewrote the vault's file once per row.
    await this.tokens.setSessionTokens(env, tokens);
    await this.records.put(env, [...changed.values()]);
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
    const entry = await this.records.remove(this.environmentId(), interviewId);
    if (!entry) return false;
    this.removed.set(this.removedKey(interviewId), entry);
    return true;
  }

  /** Puts back an entry removed in this run, as it was. */
  async restore(interviewId: string): Promise<QueueEntry> {
    const key = this.removedKey(interviewId);
    const entry = this.removed.get(key);
    if (!entry) throw nothingToRestore(interviewId);
    // Added again meanwhile (a link, an import): that newer entry stays.
    const current = await this.records.get(this.environmentId(), interviewId);
    if (!current) await this.records.put(this.environmentId(), [entry]);
    this.removed.delete(key);
    return this.viewOne(current ?? entry);
  }

  private async update(interviewId: string, change: (e: StoredEntry) => void): Promise<QueueEntry> {
    const stored = await this.records.get(this.environmentId(), interviewId);
    if (!stored) throw notInQueue(interviewId);
    const entry: StoredEntry = { ...stored };
    change(entry);
    await this.records.put(this.environmentId(), [entry]);
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
    const stored = await this.records.get(this.environmentId(), interviewId);
    if (!stored) throw notInQueue(interviewId);
    if (stored.localState !== 'toReview') return;
    await this.records.put(this.environmentId(), [{ ...stored, localState: 'inReview' }]);
  }

  /**
   * Called with every response that carries a session status; the header shows the latest. Seeing the same status
   * again is written only when the last sighting is older than SEEN_REFRESH_MS: the panels of one opening see the
   * status two or three times.
   */
  async recordStatus(interviewId: string, status: SessionStatus | undefined): Promise<void> {
    const entry = status && (await this.records.get(this.environmentId(), interviewId));
    if (!entry) return;
    const seenAt = entry.sessionStatusSeenAt ? Date.parse(entry.sessionStatusSeenAt) : NaN;
    if (entry.sessionStatus === status && this.now().getTime() - seenAt < SEEN_REFRESH_MS) return;
    await this.records.setStatus(this.environmentId(), interviewId, status, this.now().toISOString());
  }

  async attachToken(interviewId: string, token: string) {
    await this.require(interviewId);
    refuseOtherInterviewsToken(interviewId, token);
    await this.tokens.setSessionToken(this.environmentId(), interviewId, token);
    return this.require(interviewId);
  }

  async clearToken(interviewId: string) {
    await this.require(interviewId);
    await this.tokens.clearSessionToken(this.environmentId(), interviewId);
    return this.require(interviewId);
  }
}

function refuseOtherInterviewsToken(interviewId: string, token: string | undefined) {
  const other = token === undefined ? undefined : otherInterviewOfToken(token, interviewId);
  if (other !== undefined) throw tokenOfOtherInterview(interviewId, other, 'attach');
}
