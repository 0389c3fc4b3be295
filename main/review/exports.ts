import type { MainContext } from '../ports';
import type { AuditTrailView } from '../../common/ipc/app';
import type { AuditView, Fetched, SavedFile } from '../../common/ipc/interview';
import { ReviewError } from '../errors';
import { errorData } from './errors';
import type { InterviewReads } from './interview-reads';
import { personOf } from './person';
import { auditJson, reviewReportPdf, type Outcome, type ReportLanguage } from './report';

/** An interview's trail as read and as exported, and every file the analyst saves of it; each save is recorded. */
export class ReviewExports {
  constructor(
    private readonly ctx: MainContext,
    private readonly reads: InterviewReads,
    private readonly now: () => Date,
  ) {}

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
    const env = this.ctx.environments.active();
    const overview = await this.reads.overviewOf(interviewId);
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
      outcome(this.reads.fetchRawIdv(interviewId)),
      outcome(this.reads.fetchCrossDoc(interviewId)),
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
      person: personOf(this.ctx),
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

  /** A contract or a video snapshot the analyst saves from the workspace. */
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
}

async function outcome<T>(p: Promise<Fetched<T>>): Promise<Outcome<T>> {
  try {
    return { ok: true, data: (await p).data };
  } catch (err) {
    return { ok: false, error: errorData(err).message };
  }
}

/** The active environment's trail, for Settings: the chain verified whole, since one chain spans every environment. */
export async function environmentTrail(ctx: Pick<MainContext, 'environments' | 'audit'>): Promise<AuditTrailView> {
  const env = ctx.environments.active();
  const [entries, chain] = await Promise.all([ctx.audit.list(), ctx.audit.verify()]);
  return {
    environment: { id: env.id, name: env.name, kind: env.kind },
    entries: entries.filter((e) => e.environment === env.id).reverse(),
    chain,
  };
}

/** The active environment's trail as a JSON file; the export itself is recorded. */
export async function exportEnvironmentTrail(
  ctx: Pick<MainContext, 'environments' | 'audit' | 'files'>,
  now: () => Date = () => new Date(),
): Promise<SavedFile | null> {
  const trail = await environmentTrail(ctx);
  const exportedAt = now().toISOString();
  const data = new TextEncoder().encode(
    JSON.stringify(
      {
        format: 'omni-reviewer.audit-trail',
        version: 1,
        environment: trail.environment,
        exportedAt,
        chain: trail.chain,
        entries: trail.entries,
      },
      null,
      2,
    ),
  );
  const stamp = exportedAt.slice(0, 19).replace(/[:T]/g, '-');
  const saved = await ctx.files.save({
    suggestedName: `audit-trail-${trail.environment.id}-${stamp}.json`,
    data,
    mimeType: 'application/json',
  });
  if (saved) await ctx.audit.append({ action: 'downloaded', detail: { what: 'auditTrail' } });
  return saved;
}
