import type { Draft, DraftKind, Drafts } from '../../common/ipc/interview';
import type { ReviewRecord } from '../ports';

/**
 * Text the analyst typed but the service has not confirmed yet. Saved from the first keystroke, removed only by
 * `confirmSent`; a failed send leaves the text and records why.
 */
export class DraftStore {
  constructor(
    private readonly records: ReviewRecord['drafts'],
    private readonly environmentId: () => string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  get(interviewId: string): Promise<Drafts> {
    return this.records.get(this.environmentId(), interviewId);
  }

  /** An emptied field removes the draft; typing again keeps the last error visible until the next send. */
  async save(interviewId: string, kind: DraftKind, text: string): Promise<Drafts> {
    const previous = (await this.get(interviewId))[kind];
    const next: Draft | undefined =
      text === ''
        ? undefined
        : {
            text,
            updatedAt: this.now().toISOString(),
            ...(previous?.lastError ? { lastError: previous.lastError } : {}),
          };
    await this.records.put(this.environmentId(), interviewId, kind, next);
    return this.get(interviewId);
  }

  async recordFailure(
    interviewId: string,
    kind: DraftKind,
    error: { code: string; message: { en: string; es: string } },
  ): Promise<Drafts> {
    const draft = (await this.get(interviewId))[kind];
    if (draft)
      await this.records.put(this.environmentId(), interviewId, kind, {
        ...draft,
        lastError: { code: error.code, message: error.message, at: this.now().toISOString() },
      });
    return this.get(interviewId);
  }

  /** Only after the service said yes; and only if the text was not changed meanwhile. */
  async confirmSent(interviewId: string, kind: DraftKind, sentText: string): Promise<Drafts> {
    if ((await this.get(interviewId))[kind]?.text === sentText)
      await this.records.put(this.environmentId(), interviewId, kind, undefined);
    return this.get(interviewId);
  }
}
