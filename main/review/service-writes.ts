import type { MainContext } from '../ports';
import { serviceAnswer } from '../omni/answer';
import type { DraftKind, SendResult } from '../../common/ipc/interview';
import { ReviewError } from '../errors';
import type { ServiceWrite, ServiceWriteKind } from '../record/service-write-records';
import type { DraftStore } from './drafts';
import { otherInterviewOfToken } from '../../common/session-token';
import { emptyDraft, errorData, noSessionToken, sessionNotWritable, tokenOfOtherInterview } from './errors';
import type { InterviewReads } from './interview-reads';
import type { ReviewQueue } from './queue';

const what: Record<'notes' | 'name', { en: string; es: string }> = {
  notes: { en: 'note', es: 'nota' },
  name: { en: 'name', es: 'nombre' },
};

/** Notes, names and decision notes sent to the service about one interview: recorded first, held by a claim. */
export class ServiceWrites {
  constructor(
    private readonly ctx: MainContext,
    private readonly queue: ReviewQueue,
    private readonly drafts: DraftStore,
    private readonly reads: InterviewReads,
    private readonly now: () => Date,
    private readonly sender: () => string | undefined,
  ) {}

  /** Session-bound writes need the interview's session token and a session that still accepts writes. */
  async requireWritable(interviewId: string) {
    const entry = await this.queue.require(interviewId);
    if (entry.sessionStatus === 'Closed' || entry.sessionStatus === 'Deleted')
      throw sessionNotWritable(entry.sessionStatus);
    if (!entry.hasSessionToken) throw noSessionToken(interviewId);
    const token = await this.ctx.vault.getSessionToken(this.ctx.environments.active().id, interviewId);
    const other = token === undefined ? undefined : otherInterviewOfToken(token, interviewId);
    if (other !== undefined) throw tokenOfOtherInterview(interviewId, other, 'send');
  }

  /**
   * On a team database only the claim's live holder decides an interview or writes to the service about it: taken
   * here when nobody holds it (as opening does), refused naming the holder when someone else does.
   */
  async holding<T>(interviewId: string, work: () => Promise<T>): Promise<T> {
    if (this.ctx.record.engine !== 'team') return work();
    const env = this.ctx.environments.active().id;
    if (await this.ctx.record.claims.renew(env, interviewId)) return work();
    await this.ctx.record.claims.claim(env, interviewId);
    await this.ctx.audit.append({ interviewId, action: 'claimed', detail: {} });
    try {
      return await work();
    } catch (error) {
      // Taken for this action alone: what it refused leaves the interview as free as it was.
      if (await this.ctx.record.claims.release(env, interviewId).catch(() => false))
        await this.ctx.audit.append({ interviewId, action: 'released', detail: {} }).catch(() => undefined);
      throw error;
    }
  }

  /** A decided interview is let go. Best effort: the decision stands, and an unreleased claim lapses by itself. */
  async releaseClaim(interviewId: string) {
    await this.ctx.record.claims.release(this.ctx.environments.active().id, interviewId).catch(() => undefined);
  }

  /**
   * The database first, the service second: the write is recorded (and thereby allowed) before it is sent, with a key
   * of its own; the service's answer settles it. A refused or failed write is sent again with the same key.
   */
  async send(
    interviewId: string,
    draftKind: DraftKind,
    draftText: string,
    write: ServiceWrite | { kind: ServiceWriteKind; body: string },
  ): Promise<SendResult> {
    const endpoint = 'kind' in write && write.kind === 'name' ? 'addName' : 'addConferenceNotes';
    let recorded: ServiceWrite | undefined;
    try {
      await this.requireWritable(interviewId);
      recorded =
        'kind' in write ? await this.recordWrite(interviewId, write.kind, write.body) : (write as ServiceWrite);
      const { body, idempotencyKey } = recorded;
      const opts = { interviewId, idempotencyKey };
      const res =
        endpoint === 'addName'
          ? await this.ctx.omni().call('addName', { body: { name: body } }, opts)
          : await this.ctx.omni().call('addConferenceNotes', { body: { notes: body } }, opts);
      await this.queue.recordStatus(interviewId, res.sessionStatus);
      if (!res.success)
        throw new ReviewError(
          'NOT_ACCEPTED',
          { en: 'The service did not accept the text.', es: 'El servicio no aceptó el texto.' },
          {
            en: 'Check the session status and try again.',
            es: 'Revisa el estado de la sesión e inténtalo de nuevo.',
          },
          { retryable: true },
        );
      await this.ctx.record.writes.settle(recorded.id, 'sent', serviceAnswer(endpoint, res), await this.senderName());
      await this.drafts.confirmSent(interviewId, draftKind, draftText);
      return {
        ...(res.sessionStatus ? { sessionStatus: res.sessionStatus } : {}),
        sentAt: this.now().toISOString(),
        answer: serviceAnswer(endpoint, res),
      };
    } catch (err) {
      const data = errorData(err);
      // The send's own error is what the analyst needs; a record that cannot take the note of it too must not hide it.
      if (recorded) await this.ctx.record.writes.settle(recorded.id, 'refused', data).catch(() => undefined);
      await this.drafts.recordFailure(interviewId, draftKind, data).catch(() => undefined);
      // A 400 is how the service refuses writes to a closed or deleted session: learn the status for the header.
      if (data.httpStatus === 400) await this.reads.contractLinks(interviewId).catch(() => undefined);
      throw err;
    }
  }

  /** This login's unsent write of the same text is sent again (same key); anything else is a new write. */
  private async recordWrite(interviewId: string, kind: ServiceWriteKind, body: string): Promise<ServiceWrite> {
    const env = this.ctx.environments.active().id;
    const unsent = await this.ctx.record.writes.unsent(env, interviewId, kind);
    if (unsent && unsent.body === body) return unsent;
    return this.ctx.record.writes.begin(env, interviewId, kind, body);
  }

  /** Who sends from this app, as every screen, note and report names them: the team login, else the OS account. */
  async senderName(): Promise<string | undefined> {
    if (this.ctx.record.engine === 'team')
      return (await this.ctx.record.teamSettings.whoAmI().catch(() => undefined))?.user ?? this.sender();
    return this.sender();
  }

  async sendText(interviewId: string, kind: 'notes' | 'name'): Promise<SendResult> {
    const typed = (await this.drafts.get(interviewId))[kind]?.text ?? '';
    const text = typed.trim();
    if (!text) throw emptyDraft(what[kind]);
    // The service keeps no author of a note, so the trail does (the database writes the entry as the write is settled
    // sent, migration 0016): the history under the notes box reads it back.
    return this.holding(interviewId, () => this.send(interviewId, kind, typed, { kind, body: text }));
  }
}
