import type { MainContext } from '../ports';
import type { CrossDocResponse, RawIdvResponse } from '../../common/omni';
import type {
  AuditView,
  ContractsView,
  CrossDocView,
  DecideResult,
  DecisionKind,
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
import type { AddResult, DeepLinkOpened, DemoSeed, LocalReviewState, QueueEntry } from '../../common/ipc/queue';
import type { ReviewVerdict } from '../../common/team-review';
import { parseDeepLink } from '../../common/deep-link';
import { otherInterviewOfToken } from '../../common/session-token';
import { ReviewError } from '../errors';
import { DecisionDesk } from './decision-desk';
import { DemoSeeds } from './demo-seeds';
import { DraftStore } from './drafts';
import { ReviewExports } from './exports';
import { parseImport } from './import';
import { InterviewMedia } from './media';
import { InterviewReads } from './interview-reads';
import { osAccount } from './person';
import { ReviewQueue } from './queue';
import type { ReportLanguage } from './report';
import { ServiceWrites } from './service-writes';

/**
 * Everything the review queue and interview workspace do in main, one per MainContext: the queue's own work here,
 * the rest in its parts (reads, media, writes, decisions, exports, demo seeds), each method below one call into them.
 */
export class ReviewService {
  readonly queue: ReviewQueue;
  readonly drafts: DraftStore;
  readonly reads: InterviewReads;
  readonly media: InterviewMedia;
  readonly writes: ServiceWrites;
  readonly decisions: DecisionDesk;
  readonly exports: ReviewExports;
  readonly demo: DemoSeeds;

  constructor(
    private readonly ctx: MainContext,
    now: () => Date = () => new Date(),
    /** Who sends from this app: the OS account, recorded with every note, name and decision it sends. */
    sender: () => string | undefined = osAccount,
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
    this.reads = new InterviewReads(ctx, this.queue, now);
    this.media = new InterviewMedia(ctx, this.reads, now);
    this.writes = new ServiceWrites(ctx, this.queue, this.drafts, this.reads, now, sender);
    this.decisions = new DecisionDesk(ctx, this.queue, this.drafts, this.reads, this.writes, now);
    this.exports = new ReviewExports(ctx, this.reads, now);
    this.demo = new DemoSeeds(ctx, this.queue);
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

  /**
   * A link from anywhere (a web page, an e-mail) adds its interview; its token is attached only when it names no other
   * interview and the interview holds no other token: a token swapped in unasked had the service file this interview's
   * notes and decision on another one. The workspace says why a link's token was not used.
   */
  async openDeepLink(url: string): Promise<DeepLinkOpened> {
    const { interviewId, sessionToken } = parseDeepLink(url);
    if (sessionToken === undefined) {
      await this.queue.add([{ interviewId }]);
      return { interviewId };
    }
    const held = await this.ctx.vault.getSessionToken(this.ctx.environments.active().id, interviewId);
    const notUsed =
      otherInterviewOfToken(sessionToken, interviewId) !== undefined
        ? 'otherInterview'
        : held !== undefined && held !== sessionToken
          ? 'otherTokenHeld'
          : undefined;
    await this.queue.add([notUsed ? { interviewId } : { interviewId, sessionToken }]);
    return { interviewId, ...(notUsed ? { linkTokenNotUsed: notUsed } : {}) };
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

  demoSeeds(): Promise<DemoSeed[]> {
    return this.demo.list();
  }

  addDemoSeeds(ids?: string[]): Promise<AddResult> {
    return this.demo.add(ids);
  }

  // ---- one interview ----

  async open(interviewId: string): Promise<OpenedInterview> {
    if (!(await this.queue.has(interviewId))) await this.queue.add([{ interviewId }]);
    await this.queue.markOpened(interviewId);
    await this.ctx.audit.append({ interviewId, action: 'opened', detail: {} });
    const [overview, audit] = await Promise.all([this.overviewOf(interviewId), this.audit(interviewId)]);
    return { overview, audit };
  }

  overview(interviewId: string): Promise<InterviewOverview> {
    return this.reads.overviewOf(interviewId);
  }

  overviewOf(interviewId: string): Promise<InterviewOverview> {
    return this.reads.overviewOf(interviewId);
  }

  fetchRawIdv(interviewId: string): Promise<Fetched<RawIdvResponse>> {
    return this.reads.fetchRawIdv(interviewId);
  }

  fetchCrossDoc(interviewId: string): Promise<Fetched<CrossDocResponse>> {
    return this.reads.fetchCrossDoc(interviewId);
  }

  rawIdv(interviewId: string): Promise<Fetched<RawIdvView>> {
    return this.reads.rawIdv(interviewId);
  }

  crossDoc(interviewId: string): Promise<Fetched<CrossDocView>> {
    return this.reads.crossDoc(interviewId);
  }

  contracts(interviewId: string): Promise<Fetched<ContractsView>> {
    return this.media.contracts(interviewId);
  }

  video(interviewId: string): Promise<Fetched<VideoLink | { unavailable: string }>> {
    return this.media.video(interviewId);
  }

  recordPlay(interviewId: string, positionSeconds: number) {
    return this.media.recordPlay(interviewId, positionSeconds);
  }

  // ---- writes and decisions ----

  saveDraft(interviewId: string, kind: DraftKind, text: string): Promise<Drafts> {
    return this.drafts.save(interviewId, kind, text);
  }

  sendText(interviewId: string, kind: 'notes' | 'name'): Promise<SendResult> {
    return this.writes.sendText(interviewId, kind);
  }

  decide(
    interviewId: string,
    decision: DecisionKind,
    reason: string,
    acknowledge: boolean,
    reasonCode?: string,
  ): Promise<DecideResult> {
    return this.decisions.decide(interviewId, decision, reason, acknowledge, reasonCode);
  }

  reviewDecision(interviewId: string, verdict: ReviewVerdict, reason: string): Promise<DecideResult> {
    return this.decisions.review(interviewId, verdict, reason);
  }

  sendDecisionNoteAgain(interviewId: string): Promise<DecideResult> {
    return this.decisions.sendNoteAgain(interviewId);
  }

  // ---- trail and files ----

  audit(interviewId: string): Promise<AuditView> {
    return this.exports.audit(interviewId);
  }

  exportAudit(interviewId: string, format: 'json' | 'pdf', language: ReportLanguage): Promise<SavedFile | null> {
    return this.exports.exportAudit(interviewId, format, language);
  }

  saveFile(input: Parameters<ReviewExports['saveFile']>[0]): Promise<SavedFile | null> {
    return this.exports.saveFile(input);
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
