import type { JsonStore } from '../json-store';
import type { Draft, DraftKind, Drafts } from '../../common/ipc/interview';

type StoredDrafts = Record<string, Drafts>;

/**
 * Text the analyst typed but the service has not confirmed yet. Saved from the first keystroke, removed only by
 * `confirmSent`; a failed send leaves the text and records why.
 */
export class DraftStore {
  constructor(
    private readonly store: JsonStore,
    private readonly environmentId: () => string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private key() {
    return `review.drafts.${this.environmentId()}`;
  }

  private read(): StoredDrafts {
    const raw = this.store.get<StoredDrafts>(this.key());
    return raw && typeof raw === 'object' ? raw : {};
  }

  get(interviewId: string): Drafts {
    return this.read()[interviewId] ?? {};
  }

  /** An emptied field removes the draft; typing again keeps the last error visible until the next send. */
  save(interviewId: string, kind: DraftKind, text: string): Drafts {
    const all = this.read();
    const drafts: Drafts = { ...(all[interviewId] ?? {}) };
    if (text === '') delete drafts[kind];
    else {
      const previous = drafts[kind];
      const next: Draft = { text, updatedAt: this.now().toISOString() };
      if (previous?.lastError) next.lastError = previous.lastError;
      drafts[kind] = next;
    }
    this.put(all, interviewId, drafts);
    return drafts;
  }

  recordFailure(
    interviewId: string,
    kind: DraftKind,
    error: { code: string; message: { en: string; es: string } },
  ): Drafts {
    const all = this.read();
    const drafts: Drafts = { ...(all[interviewId] ?? {}) };
    const draft = drafts[kind];
    if (!draft) return drafts;
    drafts[kind] = { ...draft, lastError: { code: error.code, message: error.message, at: this.now().toISOString() } };
    this.put(all, interviewId, drafts);
    return drafts;
  }

  /** Only after the service said yes; and only if the text was not changed meanwhile. */
  confirmSent(interviewId: string, kind: DraftKind, sentText: string): Drafts {
    const all = this.read();
    const drafts: Drafts = { ...(all[interviewId] ?? {}) };
    if (drafts[kind]?.text === sentText) delete drafts[kind];
    this.put(all, interviewId, drafts);
    return drafts;
  }

  private put(all: StoredDrafts, interviewId: string, drafts: Drafts) {
    if (Object.keys(drafts).length === 0) delete all[interviewId];
    else all[interviewId] = drafts;
    this.store.set(this.key(), all);
  }
}
