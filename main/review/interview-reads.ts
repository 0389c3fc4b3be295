import type { MainContext } from '../ports';
import type { CrossDocResponse, RawIdvResponse } from '../../common/omni';
import { redact } from '../log';
import { recordAway } from '../record/while-away';
import { serviceAnswer } from '../omni/answer';
import type { CrossDocView, Fetched, InterviewOverview, RawIdvView } from '../../common/ipc/interview';
import { crossDocRows } from './crossdoc';
import { openHighFindings, riskLevelOf } from './decision';
import { personOf } from './person';
import type { ReviewQueue } from './queue';

/** What the workspace reads of one interview from the record and the service, each answer stamped when read. */
export class InterviewReads {
  constructor(
    private readonly ctx: MainContext,
    private readonly queue: ReviewQueue,
    private readonly now: () => Date,
  ) {}

  stamp<T>(data: T): Fetched<T> {
    return { data, fetchedAt: this.now().toISOString() };
  }

  async overviewOf(interviewId: string): Promise<InterviewOverview> {
    const env = this.ctx.environments.active();
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

  /**
   * The service's answers as every later use takes them (screens, readings, reports, evidence files): any held secret
   * they echo redacted where they enter (a tracing gateway puts the request's headers in; red teams 17 and 18).
   */
  async fetchRawIdv(interviewId: string): Promise<Fetched<RawIdvResponse>> {
    const res = await this.askRawIdv(interviewId);
    // Four eyes is judged on every reading on file, and the queue shows the latest one's risk (migration 0012); a
    // record that cannot take it now must not cost the analyst the checks.
    await this.fileReading(interviewId, res).catch(() => undefined);
    return this.stamp(res);
  }

  private async askRawIdv(interviewId: string): Promise<RawIdvResponse> {
    return redact(
      await this.ctx.omni().call('getRawIdvResults', { query: { id: interviewId }, body: undefined }, { interviewId }),
    );
  }

  /** The risk reading these checks give, on file for the queue and four eyes. */
  private fileReading(interviewId: string, res: RawIdvResponse): Promise<void> {
    return this.ctx.record.readings.add(
      this.ctx.environments.active().id,
      interviewId,
      riskLevelOf(res),
      openHighFindings(res),
    );
  }

  /**
   * One queue row's risk, read without opening it: the row must be in the queue, and the reading must be on file,
   * since filing it is the point (a record away is an error, which ends a bulk run).
   */
  async readRisk(interviewId: string): Promise<void> {
    await this.queue.require(interviewId);
    if (this.ctx.record.link().away) throw recordAway();
    await this.fileReading(interviewId, await this.askRawIdv(interviewId));
    // A record that went away meanwhile lets a reading go (while-away.ts): not filed, so not done.
    if (this.ctx.record.link().away) throw recordAway();
  }

  async fetchCrossDoc(interviewId: string): Promise<Fetched<CrossDocResponse>> {
    return this.stamp(
      redact(
        await this.ctx
          .omni()
          .call('getCrossDocResults', { query: { id: interviewId }, body: undefined }, { interviewId }),
      ),
    );
  }

  async rawIdv(interviewId: string): Promise<Fetched<RawIdvView>> {
    const { data, fetchedAt } = await this.fetchRawIdv(interviewId);
    return {
      data: {
        result: data,
        highFindings: openHighFindings(data),
        riskLevel: riskLevelOf(data),
        answer: serviceAnswer('getRawIdvResults', data),
      },
      fetchedAt,
    };
  }

  async crossDoc(interviewId: string): Promise<Fetched<CrossDocView>> {
    const { data, fetchedAt } = await this.fetchCrossDoc(interviewId);
    return {
      data: { rows: crossDocRows(data), answer: serviceAnswer('getCrossDocResults', data) },
      fetchedAt,
    };
  }

  /** The contracts' links, and with them the session's status, which the queue keeps for the header. */
  async contractLinks(interviewId: string) {
    const res = await this.ctx
      .omni()
      .call('getContractLinks', { query: { id: interviewId }, body: undefined }, { interviewId });
    await this.queue.recordStatus(interviewId, res.sessionStatus);
    return res;
  }
}
