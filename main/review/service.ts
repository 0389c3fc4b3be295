import { demoRoutes } from '../demo-client';
import type { EnvironmentConfig, MainContext } from '../ports';
import type { CrossDocResponse, RawIdvResponse } from '../../common/omni';
import { serviceAnswer } from '../omni/answer';
import type {
  AuditView,
  ContractsView,
  CrossDocView,
  DecideResult,
  DecisionKind,
  DecisionRecord,
  DraftKind,
  Drafts,
  Fetched,
  InterviewOverview,
  OpenedInterview,
  RawIdvView,
  SavedFile,
  SendResult,
  VideoLink,
} from '../../common/ipc/interview';
import type { AddResult, DemoSeed, LocalReviewState, QueueEntry } from '../../common/ipc/queue';
import { InterviewId, SessionToken } from '../../common/ipc/queue';
import { SessionStatus } from '../../common/omni';
import { type DecisionStatus, needsSecondReviewer, type ReviewVerdict } from '../../common/team-review';
import { parseDeepLink } from '../../common/deep-link';
import { DraftStore } from './drafts';
import { ReviewError } from '../errors';
import { emptyDraft, errorData, noSessionToken, sessionNotWritable } from './errors';
import { crossDocRows } from './crossdoc';
import { formatDecisionNote, openHighFindings, riskLevelOf } from './decision';
import { parseImport } from './import';
import { ReviewQueue } from './queue';
import { osAccount, personOf } from './person';
import type { ServiceWrite, ServiceWriteKind } from '../record/service-write-records';
import { auditJson, reviewReportPdf, type Outcome, type ReportLanguage } from './report';
import { videoUrlExpiry } from './video';

const what: Record<'notes' | 'name', { en: string; es: string }> = {
  notes: { en: 'note', es: 'nota' },
  name: { en: 'name', es: 'nombre' },
};

/** Everything the review queue and interview workspace do in main; one per MainContext. */
export class ReviewService {
  readonly queue: ReviewQueue;
  readonly drafts: DraftStore;
  /** Remote URL → app media URL, so re-fetching the same link does not register it again. */
  private readonly mediaUrls = new Map<string, string>();

  constructor(
    private readonly ctx: MainContext,
    private readonly now: () => Date = () => new Date(),
    /** Who sends from this app: the OS account, recorded with every note, name and decision it sends. */
    private readonly sender: () => string | undefined = osAccount,
  ) {
    const envId = () => ctx.environments.active().id;
    this.queue = new ReviewQueue(
      ctx.record.queue,
      ctx.vault,
      envId,
      (environmentId, interviewIds) => ctx.audit.lastRecorded('opened', environmentId, interviewIds),
      now,
      (environmentId, interviewIds) => ctx.record.decisions.proposals(environmentId, interviewIds),
    );
    this.drafts = new DraftStore(ctx.record.drafts, envId, now);
  }

  private env(): EnvironmentConfig {
    return this.ctx.environments.active();
  }

  private stamp<T>(data: T): Fetched<T> {
    return { data, fetchedAt: this.now().toISOString() };
  }

  // ---- queue ----

  importText(text: string, format: 'auto' | 'csv' | 'list'): Promise<AddResult> {
    const parsed = parseImport(text, format);
    if (parsed.items.length === 0 && parsed.problems.length === 0)
      throw new ReviewError(
        'EMPTY_IMPORT',
        { en: 'There are no interview ids in this text.', es: 'Este texto no contiene ids de entrevista.' },
        {
          en: 'Paste one id per line, or a CSV with an interviewId column.',
          es: 'Pega un id por línea, o un CSV con una columna interviewId.',
        },
      );
    return this.queue.add(parsed.items, parsed.problems);
  }

  async openDeepLink(url: string): Promise<{ interviewId: string }> {
    const link = parseDeepLink(url);
    await this.queue.add([link]);
    return { interviewId: link.interviewId };
  }

  /**
   * The demo server lists only the caller's organization when it gets an API key: the key is read from the vault
   * here in main (never sent to the renderer), so another organization's interviews are not offered.
   */
  private async fetchDemoSeeds(): Promise<(DemoSeed & { sessionToken?: string })[]> {
    const env = this.env();
    if (env.kind !== 'demo') return [];
    let body: unknown;
    try {
      const apiKey = await this.ctx.vault.getCredential(env.id, 'apiKey');
      body = await demoRoutes(env.baseUrl).interviews(apiKey ?? undefined);
    } catch {
      throw new ReviewError(
        'DEMO_UNAVAILABLE',
        {
          en: 'The demo server did not list its interviews.',
          es: 'El servidor de demostración no listó sus entrevistas.',
        },
        {
          en: 'Restart the app; the demo server starts with it.',
          es: 'Reinicia la aplicación; el servidor de demostración arranca con ella.',
        },
        { retryable: true },
      );
    }
    if (!Array.isArray(body)) return [];
    const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : undefined);
    return body.flatMap((raw) => {
      const r = raw as Record<string, unknown>;
      const id = InterviewId.safeParse(r.interviewId);
      const status = SessionStatus.safeParse(r.sessionStatus);
      if (!id.success || !status.success) return [];
      const token = SessionToken.safeParse(r.sessionToken);
      const labelEs = text(r.labelEs);
      return [
        {
          interviewId: id.data,
          sessionStatus: status.data,
          label: text(r.label) ?? id.data,
          ...(labelEs ? { labelEs } : {}),
          inQueue: false,
          ...(token.success ? { sessionToken: token.data } : {}),
        },
      ];
    });
  }

  async demoSeeds(): Promise<DemoSeed[]> {
    const seeds = await this.fetchDemoSeeds();
    const queued = new Set((await this.queue.list()).map((e) => e.interviewId));
    return seeds.map(({ sessionToken: _token, ...seed }) => ({ ...seed, inQueue: queued.has(seed.interviewId) }));
  }

  async addDemoSeeds(ids?: string[]): Promise<AddResult> {
    const seeds = await this.fetchDemoSeeds();
    const wanted = ids ? seeds.filter((s) => ids.includes(s.interviewId)) : seeds;
    return this.queue.add(wanted.map(({ inQueue: _inQueue, ...seed }) => seed));
  }

  /** A manual change of the analyst's own state (reopen, back to "to review"); recorded when it changes anything. */
  async setState(interviewId: string, state: LocalReviewState): Promise<QueueEntry> {
    const before = await this.queue.require(interviewId);
    const after = await this.queue.setState(interviewId, state);
    if (before.localState !== state)
      await this.ctx.audit.append({
        interviewId,
        action: 'stateChanged',
        detail: { from: before.localState, to: state },
      });
    return after;
  }

  // ---- one interview ----

  private async overviewOf(interviewId: string): Promise<InterviewOverview> {
    const env = this.env();
    const [entry, last] = await Promise.all([
      this.queue.require(interviewId),
      this.ctx.record.decisions.last(env.id, interviewId),
    ]);
    const unsent = last && (await this.ctx.record.writes.unsent(env.id, interviewId, 'decision'));
    const person = personOf(this.ctx);
    const shown = last && {
      ...last,
      ...(unsent ? { noteUnsent: true as const } : {}),
      ...(last.decidedBy ? { decidedBy: person(last.decidedBy) } : {}),
      ...(last.reviewedBy ? { reviewedBy: person(last.reviewedBy) } : {}),
    };
    return {
      entry,
      environment: { id: env.id, kind: env.kind, name: env.name },
      ...(shown ? { lastDecision: shown } : {}),
    };
  }

  async open(interviewId: string): Promise<OpenedInterview> {
    if (!(await this.queue.has(interviewId))) await this.queue.add([{ interviewId }]);
    await this.queue.markOpened(interviewId);
    await this.ctx.audit.append({ interviewId, action: 'opened', detail: {} });
    const [overview, audit] = await Promise.all([this.overviewOf(interviewId), this.audit(interviewId)]);
    return { overview, audit };
  }

  overview(interviewId: string) {
    return this.overviewOf(interviewId);
  }

  private async fetchRawIdv(interviewId: string): Promise<Fetched<RawIdvResponse>> {
    const res = await this.ctx
      .omni()
      .call('getRawIdvResults', { query: { id: interviewId }, body: undefined }, { interviewId });
    // The queue filters by risk, and four eyes is judged on every reading on file; a record that cannot take them
    // now must not cost the analyst the checks.
    const risk = riskLevelOf(res);
    await Promise.all([
      this.queue.recordRisk(interviewId, risk).catch(() => undefined),
      this.ctx.record.readings.add(this.env().id, interviewId, risk, openHighFindings(res)).catch(() => undefined),
    ]);
    return this.stamp(res);
  }

  private async fetchCrossDoc(interviewId: string): Promise<Fetched<CrossDocResponse>> {
    return this.stamp(
      await this.ctx
        .omni()
        .call('getCrossDocResults', { query: { id: interviewId }, body: undefined }, { interviewId }),
    );
  }

  async rawIdv(interviewId: string): Promise<Fetched<RawIdvView>> {
    const { data, fetchedAt } = await this.fetchRawIdv(interviewId);
    return {
      data: { result: data, highFindings: openHighFindings(data), answer: serviceAnswer('getRawIdvResults', data) },
      fetchedAt,
    };
  }

  async crossDoc(interviewId: string): Promise<Fetched<CrossDocView>> {
    const { data, fetchedAt } = await this.fetchCrossDoc(interviewId);
    return { data: { rows: crossDocRows(data), answer: serviceAnswer('getCrossDocResults', data) }, fetchedAt };
  }

  private async contractLinks(interviewId: string) {
    const res = await this.ctx
      .omni()
      .call('getContractLinks', { query: { id: interviewId }, body: undefined }, { interviewId });
    await this.queue.recordStatus(interviewId, res.sessionStatus);
    return res;
  }

  /** The media route passes the remote content type through (the demo video is WebM, production may differ). */
  private registerMedia(remoteUrl: string, refresh: () => Promise<string>): string {
    const known = this.mediaUrls.get(remoteUrl);
    if (known) return known;
    const url = this.ctx.media.register(remoteUrl, { refresh });
    this.mediaUrls.set(remoteUrl, url);
    return url;
  }

  async contracts(interviewId: string): Promise<Fetched<ContractsView>> {
    const res = await this.contractLinks(interviewId);
    const links = res.additionalInformation ?? {};
    const documents = Object.entries(links).map(([documentId, remote]) => ({
      documentId,
      url: this.registerMedia(remote, async () => {
        const fresh = (await this.contractLinks(interviewId)).additionalInformation?.[documentId];
        if (!fresh)
          throw new ReviewError('CONTRACT_GONE', {
            en: `Contract ${documentId} is no longer listed for this interview.`,
            es: `El contrato ${documentId} ya no aparece en esta entrevista.`,
          });
        return fresh;
      }),
    }));
    return this.stamp({
      ...(res.sessionStatus ? { sessionStatus: res.sessionStatus } : {}),
      documents,
      answer: serviceAnswer('getContractLinks', res),
    });
  }

  /**
   * A 400 here is how the service says it has no recording to give (decisions.md §4); that is the panel's empty
   * state, with the service's own words, not an error. Any other failure stays an error with a retry.
   */
  async video(interviewId: string): Promise<Fetched<VideoLink | { unavailable: string }>> {
    const issued = this.now();
    let res;
    try {
      res = await this.ctx
        .omni()
        .call('getVideoSelfieUrl', { query: { interviewId }, body: undefined }, { interviewId });
    } catch (err) {
      const data = errorData(err);
      if (data.httpStatus !== 400) throw err;
      const said = data.details?.serviceMessage;
      return this.stamp({ unavailable: typeof said === 'string' ? said : data.message.en });
    }
    const url = this.registerMedia(
      res.url,
      async () =>
        (await this.ctx.omni().call('getVideoSelfieUrl', { query: { interviewId }, body: undefined }, { interviewId }))
          .url,
    );
    return this.stamp({
      url,
      issuedAt: issued.toISOString(),
      expiresAt: videoUrlExpiry(res.url, issued).toISOString(),
      answer: serviceAnswer('getVideoSelfieUrl', res),
    });
  }

  // ---- writes ----

  /** Session-bound writes need the interview's session token and a session that still accepts writes. */
  private async requireWritable(interviewId: string) {
    const entry = await this.queue.require(interviewId);
    if (entry.sessionStatus === 'Closed' || entry.sessionStatus === 'Deleted')
      throw sessionNotWritable(entry.sessionStatus);
    if (!entry.hasSessionToken) throw noSessionToken(interviewId);
  }

  /**
   * On a team database only the claim's live holder decides an interview or writes to the service about it: taken
   * here when nobody holds it (as opening does), refused naming the holder when someone else does.
   */
  private async holding<T>(interviewId: string, work: () => Promise<T>): Promise<T> {
    if (this.ctx.record.engine !== 'team') return work();
    const env = this.env().id;
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

  /**
   * The database first, the service second: the write is recorded (and thereby allowed) before it is sent, with a key
   * of its own; the service's answer settles it. A refused or failed write is sent again with the same key.
   */
  private async send(
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
      await this.ctx.record.writes.settle(recorded.id, 'sent', serviceAnswer(endpoint, res));
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
      if (data.httpStatus === 400) await this.contractLinks(interviewId).catch(() => undefined);
      throw err;
    }
  }

  /** This login's unsent write of the same text is sent again (same key); anything else is a new write. */
  private async recordWrite(interviewId: string, kind: ServiceWriteKind, body: string): Promise<ServiceWrite> {
    const env = this.env().id;
    const unsent = await this.ctx.record.writes.unsent(env, interviewId, kind);
    if (unsent && unsent.body === body) return unsent;
    return this.ctx.record.writes.begin(env, interviewId, kind, body);
  }

  /** Who sends from this app, as every screen, note and report names them: the team login, else the OS account. */
  private async senderName(): Promise<string | undefined> {
    if (this.ctx.record.engine === 'team')
      return (await this.ctx.record.teamSettings.whoAmI().catch(() => undefined))?.user ?? this.sender();
    return this.sender();
  }

  async sendText(interviewId: string, kind: 'notes' | 'name'): Promise<SendResult> {
    const typed = (await this.drafts.get(interviewId))[kind]?.text ?? '';
    const text = typed.trim();
    if (!text) throw emptyDraft(what[kind]);
    const result = await this.holding(interviewId, () => this.send(interviewId, kind, typed, { kind, body: text }));
    // The service keeps no author of a note, so the trail does: the history under the notes box reads it back.
    const by = await this.senderName();
    await this.ctx.audit.append({
      interviewId,
      action: kind === 'notes' ? 'noted' : 'named',
      detail: { text, ...(by ? { by } : {}) },
    });
    return result;
  }

  async decide(
    interviewId: string,
    decision: DecisionKind,
    reason: string,
    acknowledge: boolean,
  ): Promise<DecideResult> {
    await this.requireWritable(interviewId);
    return this.holding(interviewId, () => this.decideHeld(interviewId, decision, reason, acknowledge));
  }

  private async decideHeld(
    interviewId: string,
    decision: DecisionKind,
    reason: string,
    acknowledge: boolean,
  ): Promise<DecideResult> {
    const env = this.env().id;
    const draftText = (await this.drafts.get(interviewId)).decisionReason?.text ?? reason;
    let findings: string[] = [];
    if (decision === 'approve') {
      // Checked here, not trusted from the screen: the findings as the service reports them now.
      findings = (await this.rawIdv(interviewId)).data.highFindings;
      if (findings.length > 0 && !acknowledge)
        throw new ReviewError(
          'ACKNOWLEDGEMENT_REQUIRED',
          {
            en: `Approving needs an explicit acknowledgement of ${findings.length} high-severity finding(s).`,
            es: `Aprobar requiere reconocer explícitamente ${findings.length} hallazgo(s) de severidad alta.`,
          },
          { en: 'Tick the acknowledgement, then approve again.', es: 'Marca el reconocimiento y vuelve a aprobar.' },
          { details: { findings } },
        );
    }
    const record: DecisionRecord = {
      decision,
      reason,
      acknowledgedFindings: findings,
      decidedAt: this.now().toISOString(),
      environment: env,
      status: await this.statusOf(decision, findings),
    };
    const by = await this.senderName();
    let write: ServiceWrite | undefined;
    try {
      ({ write } = await this.ctx.record.decisions.add(
        interviewId,
        record,
        record.status === 'final' ? formatDecisionNote(interviewId, record) : undefined,
      ));
    } catch (err) {
      // The database judges four eyes on every reading on file: where it asks for a second reviewer, it is a proposal.
      if (errorData(err).code !== 'SECOND_REVIEW_REQUIRED') throw err;
      record.status = 'proposed';
      await this.ctx.record.decisions.add(interviewId, record);
    }
    if (record.status === 'proposed') {
      // Recorded for a second reviewer; the note goes to the service when one confirms it (reviewDecision).
      await this.drafts.confirmSent(interviewId, 'decisionReason', draftText);
      await this.queue.setState(interviewId, 'decided');
      await this.releaseClaim(interviewId);
      await this.ctx.audit.append({
        interviewId,
        action: 'proposed',
        detail: { decision, reason, acknowledgedFindings: findings, ...(by ? { by } : {}) },
      });
      return { status: record.status, record };
    }
    await this.queue.setState(interviewId, 'decided');
    await this.ctx.audit.append({
      interviewId,
      action: 'decided',
      detail: { decision, reason, acknowledgedFindings: findings, ...(by ? { by } : {}) },
    });
    const result = await this.send(interviewId, 'decisionReason', draftText, write!);
    await this.releaseClaim(interviewId);
    return { ...result, status: record.status, record };
  }

  /**
   * Whether the team's rule sends this decision to a second reviewer. On the embedded engine one user holds every
   * role and has nobody to confirm with, so the rule cannot apply there: its decisions are final.
   */
  private async statusOf(decision: DecisionKind, findings: string[]): Promise<DecisionStatus> {
    if (this.ctx.record.engine === 'embedded' || decision !== 'approve') return 'final';
    const { fourEyes } = await this.ctx.record.teamSettings.get();
    return needsSecondReviewer(fourEyes, decision, findings) ? 'proposed' : 'final';
  }

  /**
   * A different member, holding the interview, confirms or overturns its proposed decision. Confirmed, the
   * confirmation and its note are recorded first, then the note goes to the service (sent again with the same key
   * if it fails). Overturned, nothing is sent and the interview goes back to the queue to be decided again.
   */
  reviewDecision(interviewId: string, verdict: ReviewVerdict, reason: string): Promise<DecideResult> {
    return this.holding(interviewId, () => this.reviewHeld(interviewId, verdict, reason));
  }

  private async reviewHeld(interviewId: string, verdict: ReviewVerdict, reason: string): Promise<DecideResult> {
    const environment = this.env().id;
    const by = await this.senderName();
    const { record, write } = await this.ctx.record.decisions.review(
      environment,
      interviewId,
      verdict,
      reason,
      verdict === 'confirmed' ? (proposal) => formatDecisionNote(interviewId, proposal) : undefined,
    );
    if (verdict === 'overturned') await this.queue.setState(interviewId, 'toReview');
    await this.ctx.audit.append({
      interviewId,
      action: verdict,
      detail: { decision: record.decision, reason, ...(by ? { by } : {}) },
    });
    const sent = write ? await this.send(interviewId, 'decisionReason', reason, write) : undefined;
    await this.releaseClaim(interviewId);
    return { ...sent, status: record.status, record };
  }

  /** The recorded decision's note that did not reach the service, sent again as recorded (same key). */
  sendDecisionNoteAgain(interviewId: string): Promise<DecideResult> {
    return this.holding(interviewId, async () => {
      const env = this.env().id;
      const [unsent, last] = await Promise.all([
        this.ctx.record.writes.unsent(env, interviewId, 'decision'),
        this.ctx.record.decisions.last(env, interviewId),
      ]);
      if (!unsent || !last) throw nothingUnsent(interviewId);
      const draft = (await this.drafts.get(interviewId)).decisionReason?.text ?? last.reason;
      const sent = await this.send(interviewId, 'decisionReason', draft, unsent);
      await this.releaseClaim(interviewId);
      return { ...sent, status: last.status, record: last };
    });
  }

  /** A decided interview is let go. Best effort: the decision stands, and an unreleased claim lapses by itself. */
  private async releaseClaim(interviewId: string) {
    await this.ctx.record.claims.release(this.env().id, interviewId).catch(() => undefined);
  }

  async recordPlay(interviewId: string, positionSeconds: number) {
    await this.ctx.audit.append({
      interviewId,
      action: 'played',
      detail: { positionSeconds: Math.round(positionSeconds * 10) / 10 },
    });
    return { ok: true as const };
  }

  async saveFile(input: {
    interviewId: string;
    what: 'contract' | 'snapshot';
    documentId?: string;
    suggestedName: string;
    mimeType: string;
    dataBase64: string;
  }): Promise<SavedFile | null> {
    const data = new Uint8Array(Buffer.from(input.dataBase64, 'base64'));
    if (data.byteLength === 0)
      throw new ReviewError('EMPTY_FILE', { en: 'There is nothing to save.', es: 'No hay nada que guardar.' });
    const saved = await this.ctx.files.save({ suggestedName: input.suggestedName, data, mimeType: input.mimeType });
    if (saved)
      await this.ctx.audit.append({
        interviewId: input.interviewId,
        action: 'downloaded',
        detail: {
          what: input.what,
          ...(input.documentId ? { documentId: input.documentId } : {}),
          bytes: data.byteLength,
          name: input.suggestedName,
        },
      });
    return saved;
  }

  /** The trail as hashed: what exports carry, so an auditor's check of the chain holds. */
  private async trailOf(interviewId: string): Promise<AuditView> {
    const [entries, chain] = await Promise.all([this.ctx.audit.list({ interviewId }), this.ctx.audit.verify()]);
    return { entries, chain };
  }

  /** The trail as the screens show it: each writer named as a person. */
  async audit(interviewId: string): Promise<AuditView> {
    const { entries, chain } = await this.trailOf(interviewId);
    const person = personOf(this.ctx);
    return { entries: entries.map((e) => (e.actor ? { ...e, actor: person(e.actor) } : e)), chain };
  }

  async exportAudit(interviewId: string, format: 'json' | 'pdf', language: ReportLanguage): Promise<SavedFile | null> {
    const env = this.env();
    const overview = await this.overviewOf(interviewId);
    const audit = await this.trailOf(interviewId);
    const generatedAt = this.now().toISOString();
    const environment = { id: env.id, name: env.name, kind: env.kind };
    const stamp = generatedAt.slice(0, 19).replace(/[:T]/g, '-');
    if (format === 'json') {
      const data = new TextEncoder().encode(
        auditJson({
          interviewId,
          environment,
          generatedAt,
          audit,
          ...(overview.lastDecision ? { decision: overview.lastDecision } : {}),
        }),
      );
      return this.recordExport(
        interviewId,
        'auditJson',
        await this.ctx.files.save({
          suggestedName: `audit-${interviewId}-${stamp}.json`,
          data,
          mimeType: 'application/json',
        }),
      );
    }
    const [rawIdv, crossDoc] = await Promise.all([
      outcome(this.fetchRawIdv(interviewId)),
      outcome(this.fetchCrossDoc(interviewId)),
    ]);
    const pdf = await reviewReportPdf({
      language,
      interviewId,
      environment,
      generatedAt,
      entry: overview.entry,
      rawIdv,
      crossDoc,
      audit,
      ...(overview.lastDecision ? { decision: overview.lastDecision } : {}),
    });
    return this.recordExport(
      interviewId,
      'reviewReport',
      await this.ctx.files.save({
        suggestedName: `review-${interviewId}-${stamp}.pdf`,
        data: pdf,
        mimeType: 'application/pdf',
      }),
    );
  }

  private async recordExport(interviewId: string, what: string, saved: SavedFile | null) {
    if (saved) await this.ctx.audit.append({ interviewId, action: 'downloaded', detail: { what } });
    return saved;
  }

  saveDraft(interviewId: string, kind: DraftKind, text: string): Promise<Drafts> {
    return this.drafts.save(interviewId, kind, text);
  }
}

function nothingUnsent(interviewId: string): ReviewError {
  return new ReviewError(
    'NOTHING_UNSENT',
    {
      en: `Interview ${interviewId} has no decision note of yours waiting to be sent.`,
      es: `La entrevista ${interviewId} no tiene una nota de decisión tuya esperando a enviarse.`,
    },
    { en: 'Reload the interview to see where it stands.', es: 'Vuelve a cargar la entrevista para ver cómo está.' },
  );
}

async function outcome<T>(p: Promise<Fetched<T>>): Promise<Outcome<T>> {
  try {
    return { ok: true, data: (await p).data };
  } catch (err) {
    return { ok: false, error: errorData(err).message };
  }
}

const services = new WeakMap<MainContext, ReviewService>();

export function reviewService(ctx: MainContext): ReviewService {
  let service = services.get(ctx);
  if (!service) {
    service = new ReviewService(ctx);
    services.set(ctx, service);
  }
  return service;
}
