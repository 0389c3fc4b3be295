import { type Kysely, sql } from 'kysely';
import type { Draft, DraftKind, Drafts } from '../../common/ipc/interview';
import type { RecordDatabase } from './schema';

/** Drafts are their writer's (`current_user`); '' marks those of earlier versions, whose writer is unknown. */
const mine = sql<string>`current_user`;

/**
 * Text typed but not yet confirmed by the service, per interview, field and writer, in the review record. Each login
 * reads and writes its own (row-level security); a draft of an earlier version is read until its writer's own
 * replaces it.
 */
export class DraftRecords {
  constructor(private readonly db: Kysely<RecordDatabase>) {}

  async get(environment: string, interviewId: string): Promise<Drafts> {
    const rows = await this.db
      .selectFrom('drafts')
      .selectAll()
      .where('environment', '=', environment)
      .where('interview_id', '=', interviewId)
      .where((eb) => eb.or([eb('owner', '=', mine), eb('owner', '=', '')]))
      // Earlier versions' first, so this login's own draft of the same field wins.
      .orderBy(sql`owner <> ''`)
      .execute();
    const drafts: Drafts = {};
    for (const row of rows)
      drafts[row.kind as DraftKind] = {
        text: row.text,
        updatedAt: row.updated_at.toISOString(),
        ...(row.last_error ? { lastError: row.last_error } : {}),
      };
    return drafts;
  }

  /** Stores the draft of one field, or removes it (undefined). */
  async put(environment: string, interviewId: string, kind: DraftKind, draft: Draft | undefined): Promise<void> {
    if (!draft) {
      await this.db
        .deleteFrom('drafts')
        .where('environment', '=', environment)
        .where('interview_id', '=', interviewId)
        .where('kind', '=', kind)
        .where((eb) => eb.or([eb('owner', '=', mine), eb('owner', '=', '')]))
        .execute();
      return;
    }
    const row = {
      text: draft.text,
      updated_at: draft.updatedAt,
      last_error: draft.lastError ? JSON.stringify(draft.lastError) : null,
    };
    await this.db
      .insertInto('drafts')
      .values({ environment, interview_id: interviewId, kind, ...row })
      .onConflict((oc) => oc.columns(['environment', 'interview_id', 'kind', 'owner']).doUpdateSet(row))
      .execute();
  }

  async clear(environment: string): Promise<void> {
    await this.db.deleteFrom('drafts').where('environment', '=', environment).execute();
  }
}
