import type { BulkExportResult, BulkRefusal, BulkResult } from '../../common/ipc/bulk';
import { RISK_UNASSESSED, type QueueEntry, type QueueQuery } from '../../common/ipc/queue';
import { LOCAL_STATE_WORDS, type AuditLanguage, type Bilingual } from '../../common/audit-words';
import { toIpcErrorData } from '../errors';
import type { MainContext } from '../ports';
import { toCsv, type CsvCell } from '../validation/csv';
import { personOf } from './person';
import { notInQueue, type ReviewQueue } from './queue';
import { reviewService } from './service';
import type { TeamDesk } from './team-desk';
import { teamDesk } from './team-desk';

/**
 * The queue's bulk actions: each row goes through the single action's own code (the team desk's release and hand
 * over, the queue's removal), so on a team database the database judges each row as it would one alone. A row that
 * fails is listed with its reason and the others go on; each row done is audited on its own interview.
 */
export class QueueBulk {
  constructor(
    private readonly ctx: MainContext,
    private readonly queue: ReviewQueue,
    private readonly desk: TeamDesk,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private environment(): string {
    return this.ctx.environments.active().id;
  }

  /** Runs `act` on each row in turn (one at a time: the record's connection and the audit chain take them so anyway). */
  private async each(
    ids: string[],
    act: (interviewId: string) => Promise<true | BulkRefusal>,
    channel: string,
  ): Promise<BulkResult> {
    const result: BulkResult = { done: [], refused: [] };
    for (const interviewId of ids) {
      let outcome: true | BulkRefusal;
      try {
        outcome = await act(interviewId);
      } catch (error) {
        outcome = refusalOf(interviewId, error, channel);
      }
      if (outcome === true) result.done.push(interviewId);
      else result.refused.push(outcome);
    }
    return result;
  }

  async viewIds(query: QueueQuery, limit: number): Promise<{ ids: string[]; more: boolean }> {
    const ids = await this.queue.ids(query, limit + 1);
    return { ids: ids.slice(0, limit), more: ids.length > limit };
  }

  async release(ids: string[]): Promise<BulkResult> {
    const result = await this.each(
      ids,
      async (id) => (await this.desk.release(id)).released || refusal(id, 'NOT_RELEASED', notHeld),
      'bulk.release',
    );
    if (result.refused.length === 0) return result;
    // Say whose claims were kept, as the single release's screen does: the holders as they stand after the run.
    const holders = new Map(
      (await this.ctx.record.claims.holders(this.environment())).map((c) => [c.interviewId, c.holder]),
    );
    const person = personOf(this.ctx);
    result.refused = result.refused.map((r) => {
      const holder = r.code === 'NOT_RELEASED' ? holders.get(r.interviewId) : undefined;
      return holder ? refusal(r.interviewId, 'HELD_BY_OTHER', heldByOther(person(holder))) : r;
    });
    return result;
  }

  handOver(ids: string[], to: string): Promise<BulkResult> {
    return this.each(
      ids,
      async (id) => {
        await this.desk.reassign(id, to);
        return true;
      },
      'bulk.handOver',
    );
  }

  /**
   * One removal, audited: the queue screen's single "Remove" and each row of a bulk one. The database writes it on
   * the trail (migration 0010, whoever removes it, however); only the demo's, which its reset empties unrecorded, are
   * written here.
   */
  async removeOne(interviewId: string): Promise<boolean> {
    if (!(await this.queue.remove(interviewId))) return false;
    if (this.ctx.environments.active().kind === 'demo')
      await this.ctx.audit.append({ interviewId, action: 'removed', detail: {} });
    return true;
  }

  async restoreOne(interviewId: string): Promise<QueueEntry> {
    const entry = await this.queue.restore(interviewId);
    await this.ctx.audit.append({ interviewId, action: 'restored', detail: {} });
    return entry;
  }

  remove(ids: string[]): Promise<BulkResult> {
    return this.each(
      ids,
      async (id) => {
        if (await this.removeOne(id)) return true;
        // Still there: the team database kept it (row-level security on who added it); gone: nothing to remove.
        if (await this.queue.has(id)) return refusal(id, 'REMOVE_REFUSED', removeRefused);
        throw notInQueue(id);
      },
      'bulk.remove',
    );
  }

  restore(ids: string[]): Promise<BulkResult> {
    return this.each(
      ids,
      async (id) => {
        await this.restoreOne(id);
        return true;
      },
      'bulk.restore',
    );
  }

  /**
   * Each row's checks read and filed, one at a time. A failure that is the row's own (not in the queue, unknown to the
   * service) is listed and the others go on; any other (a rate limit once the client's waits are spent, the service
   * or the record away) stops the action there (`stoppedBy`), since every row after would meet it too (red team 23:
   * 300 rows sent 300 requests in 1.6 s after a 429); the rows read before it are counted.
   */
  async readRisk(ids: string[]): Promise<BulkResult> {
    const reads = reviewService(this.ctx).reads;
    const result: BulkResult = { done: [], refused: [] };
    for (const id of ids) {
      try {
        await reads.readRisk(id);
        result.done.push(id);
      } catch (error) {
        if (!rowsOwn(error)) return { ...result, stoppedBy: toIpcErrorData(error, 'bulk.readRisk') };
        result.refused.push(refusalOf(id, error, 'bulk.readRisk'));
      }
    }
    return result;
  }

  /**
   * The selected rows as a CSV in the analyst's language (headers and values), saved through the app's save
   * location; each exported interview's trail records the download.
   */
  async exportCsv(ids: string[], language: AuditLanguage): Promise<BulkExportResult> {
    const entries = await this.queue.views(ids);
    const holders = new Map(
      (await this.ctx.record.claims.holders(this.environment())).map((c) => [c.interviewId, c.holder]),
    );
    const person = personOf(this.ctx);
    const refused = ids.filter((id) => !entries.has(id)).map((id) => refusalOf(id, notInQueue(id), 'bulk.exportCsv'));
    const rows = ids.flatMap((id) => {
      const entry = entries.get(id);
      if (!entry) return [];
      const holder = holders.get(id);
      return [csvRow(entry, holder && person(holder), language)];
    });
    if (rows.length === 0) return { saved: false, done: [], refused };
    const stamp = this.now().toISOString().slice(0, 19).replace(/[:T]/g, '-');
    const saved = await this.ctx.files.save({
      suggestedName: `${language === 'es' ? 'bandeja' : 'queue'}-${stamp}.csv`,
      data: new TextEncoder().encode(
        toCsv(
          CSV_HEADERS.map((h) => h[language]),
          rows,
        ),
      ),
      mimeType: 'text/csv',
    });
    if (!saved) return { saved: false, done: [], refused };
    const done = ids.filter((id) => entries.has(id));
    for (const interviewId of done)
      await this.ctx.audit.append({
        interviewId,
        action: 'downloaded',
        detail: { what: 'queueCsv', rows: done.length },
      });
    return { saved: true, ...saved, done, refused };
  }
}

const CSV_HEADERS: Bilingual[] = [
  { en: 'Interview ID', es: 'ID de entrevista' },
  { en: 'Label', es: 'Etiqueta' },
  { en: 'Session status', es: 'Estado de la sesión' },
  { en: 'Risk', es: 'Riesgo' },
  { en: 'Review state', es: 'Estado de revisión' },
  { en: 'Awaiting second review', es: 'Espera segunda revisión' },
  { en: 'Held by', es: 'La tiene' },
  { en: 'Added at (UTC)', es: 'Agregada el (UTC)' },
  { en: 'Last opened (UTC)', es: 'Última apertura (UTC)' },
  { en: 'Session token', es: 'Token de sesión' },
];

const STATUS_WORDS: Record<string, Bilingual> = {
  Alive: { en: 'Alive', es: 'Activa' },
  Closed: { en: 'Closed', es: 'Cerrada' },
  Deleted: { en: 'Deleted', es: 'Eliminada' },
};
const RISK_WORDS: Record<string, Bilingual> = {
  high: { en: 'High', es: 'Alto' },
  medium: { en: 'Medium', es: 'Medio' },
  low: { en: 'Low', es: 'Bajo' },
  [RISK_UNASSESSED]: { en: 'Not assessed (no check ran)', es: 'Sin evaluar (no corrió ninguna validación)' },
};
const YES_NO = { yes: { en: 'Yes', es: 'Sí' }, no: { en: 'No', es: 'No' } } as const;

function csvRow(entry: QueueEntry, holder: string | undefined, language: AuditLanguage): CsvCell[] {
  const yesNo = (v: boolean) => YES_NO[v ? 'yes' : 'no'][language];
  // A label, holder or value the service sent newer than these tables is written as it came (toCsv neutralises
  // formulas in every text cell).
  const words = (table: Record<string, Bilingual>, value: string | undefined) =>
    value === undefined ? '' : (table[value]?.[language] ?? value);
  return [
    entry.interviewId,
    (language === 'es' ? entry.labelEs : undefined) ?? entry.label ?? '',
    words(STATUS_WORDS, entry.sessionStatus),
    words(RISK_WORDS, entry.risk),
    LOCAL_STATE_WORDS[entry.localState][language],
    yesNo(entry.awaitingSecondReview === true),
    holder ?? '',
    entry.addedAt,
    entry.lastOpenedAt ?? '',
    yesNo(entry.hasSessionToken),
  ];
}

function refusal(interviewId: string, code: string, words: { message: Bilingual; advice?: Bilingual }): BulkRefusal {
  return { interviewId, code, ...words };
}

/** A failure about this row alone: it is not in the queue, or the service refused or does not know this interview. */
function rowsOwn(error: unknown): boolean {
  const data = toIpcErrorData(error, 'bulk.readRisk');
  return data.code === 'NOT_IN_QUEUE' || [400, 404, 410].includes(data.httpStatus ?? 0);
}

function refusalOf(interviewId: string, error: unknown, channel: string): BulkRefusal {
  const data = toIpcErrorData(error, channel);
  return { interviewId, code: data.code, message: data.message, ...(data.advice ? { advice: data.advice } : {}) };
}

const notHeld = {
  message: { en: 'Nobody held it: there was no claim to release.', es: 'Nadie la tenía: no había nada que liberar.' },
};

const heldByOther = (holder: string) => ({
  message: {
    en: `Held by ${holder}: only they or a supervisor can release it.`,
    es: `La tiene ${holder}: solo esa persona o un supervisor puede liberarla.`,
  },
  advice: {
    en: `Ask ${holder} to let it go, or a supervisor to release it.`,
    es: `Pide a ${holder} que la suelte, o a un supervisor que la libere.`,
  },
});

const removeRefused = {
  message: {
    en: "The team database kept it: only whoever added it to the team's queue, or a supervisor, removes it.",
    es: 'La base de datos del equipo la conservó: solo quien la agregó a la bandeja del equipo, o un supervisor, la quita.',
  },
  advice: {
    en: 'Ask whoever added it, or a supervisor, to remove it.',
    es: 'Pide a quien la agregó, o a un supervisor, que la quite.',
  },
};

const bulks = new WeakMap<MainContext, QueueBulk>();

export function queueBulk(ctx: MainContext): QueueBulk {
  let bulk = bulks.get(ctx);
  if (!bulk) {
    bulk = new QueueBulk(ctx, reviewService(ctx).queue, teamDesk(ctx));
    bulks.set(ctx, bulk);
  }
  return bulk;
}
