import { type Kysely, sql } from 'kysely';
import { QueueQuery, type SavedView } from '../../common/ipc/queue';
import { ReviewError } from '../errors';
import type { RecordDatabase } from './schema';

/**
 * The queue views analysts keep. Row-level security decides (migration 0003): each sees their own and the shared
 * ones, and changes only their own, whatever a client sends.
 */
/** The views a login keeps (migration 0016), and so the most of one login's that a list reads. */
const VIEWS_PER_LOGIN = 100;

function refusedByCount(error: unknown): never {
  if ((error as { constraint?: unknown } | null)?.constraint === 'saved_views_count')
    throw new ReviewError(
      'TOO_MANY_VIEWS',
      { en: 'You keep 100 saved views at most.', es: 'Guardas 100 vistas como máximo.' },
      {
        en: 'Remove a view you no longer use, then save this one.',
        es: 'Quita una vista que ya no uses y guarda esta.',
      },
    );
  throw error;
}

export class SavedViewRecords {
  constructor(private readonly db: Kysely<RecordDatabase>) {}

  /**
   * Own views first, then the team's, by name. A view whose filter this version cannot read (saved by a newer one) is
   * left out rather than failing the list.
   */
  async list(): Promise<SavedView[]> {
    // Each login keeps 100 at most (migration 0016): of rows from before that, 100 a login are read, so no login's
    // views crowd out another's.
    const rows = await this.db
      .selectFrom((eb) =>
        eb
          .selectFrom('saved_views')
          .select(['id', 'name', 'owner', 'shared', 'filter'])
          .select(sql<number>`row_number() over (partition by owner order by name)`.as('nth'))
          .as('views'),
      )
      .select(['id', 'name', 'owner', 'shared', 'filter', sql<boolean>`owner = current_user`.as('mine')])
      .where('nth', '<=', VIEWS_PER_LOGIN)
      .orderBy(sql`owner = current_user`, 'desc')
      .orderBy('name')
      .orderBy('owner')
      .execute();
    return rows.flatMap((row) => {
      const query = QueueQuery.safeParse(row.filter);
      return query.success
        ? [{ id: row.id, name: row.name, owner: row.owner, mine: row.mine, shared: row.shared, query: query.data }]
        : [];
    });
  }

  /** Saves under the name, replacing the analyst's own view of that name. */
  async save(name: string, query: QueueQuery, shared: boolean): Promise<SavedView> {
    const row = await this.db
      .insertInto('saved_views')
      .values({ name, filter: JSON.stringify(query), shared })
      .onConflict((oc) =>
        oc.columns(['owner', 'name']).doUpdateSet((eb) => ({
          filter: eb.ref('excluded.filter'),
          shared: eb.ref('excluded.shared'),
        })),
      )
      .returning(['id', 'name', 'owner', 'shared'])
      .executeTakeFirstOrThrow()
      .catch(refusedByCount);
    return { ...row, mine: true, query };
  }

  /** Deletes one of the analyst's own views; false when there was none (or it is someone else's). */
  async remove(id: number): Promise<boolean> {
    const rows = await this.db.deleteFrom('saved_views').where('id', '=', id).returning('id').execute();
    return rows.length > 0;
  }
}
