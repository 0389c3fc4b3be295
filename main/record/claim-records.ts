import { type Kysely, type Selectable, sql } from 'kysely';
import type { QueueFilter } from '../../common/ipc/queue';
import type { Claim } from '../../common/team-review';
import { ReviewError } from '../errors';
import { claimedByOther } from './claim-refusal';
import { takeable } from './queue-records';
import type { ClaimTable, RecordDatabase } from './schema';

/** The view "Take next" takes within: the queue's filters and search as the screen shows them. */
export interface TakeWithin {
  filter: QueueFilter;
  search: string;
}

/** Postgres' "insufficient_privilege": a row-level security policy or a grant refused the write. */
const REFUSED = '42501';

/**
 * How often a claim is tried again after losing a race (the row taken, or lapsed, between two statements). Each lost
 * race is another analyst's win or a lapse, so a run of them ends quickly; a run this long means something refuses
 * without saying so, and the analyst is better served by an error than by a screen that waits for ever.
 */
export const CLAIM_ATTEMPTS = 25;

/** What an attempt returns when it lost a race and may be tried again. */
export const LOST = Symbol('lost a race');

/**
 * Runs `attempt` until it settles (anything but LOST), at most `attempts` times; then ClaimContended, naming the
 * interview it claims (none: take next).
 */
export async function retryLostRaces<T>(
  attempt: () => Promise<T | typeof LOST>,
  interviewId: string | undefined,
  attempts = CLAIM_ATTEMPTS,
): Promise<T> {
  for (let tried = 1; tried <= attempts; tried++) {
    const result = await attempt();
    if (result !== LOST) return result;
  }
  throw new ClaimContended(interviewId, attempts);
}

/** A claim that kept losing races: nothing was claimed, and trying again later is safe. */
export class ClaimContended extends ReviewError {
  constructor(interviewId: string | undefined, attempts: number) {
    super(
      'CLAIM_CONTENDED',
      interviewId
        ? {
            en: `Interview ${interviewId} changed hands ${attempts} times while this app tried to claim it.`,
            es: `La entrevista ${interviewId} cambió de manos ${attempts} veces mientras esta aplicación intentaba tomarla.`,
          }
        : {
            en: `Other analysts took the next interview ${attempts} times in a row before this app could.`,
            es: `Otros analistas tomaron la siguiente entrevista ${attempts} veces seguidas antes que esta aplicación.`,
          },
      { en: 'Nothing was claimed. Try again in a moment.', es: 'No se tomó nada. Inténtalo de nuevo en un momento.' },
      { retryable: true, details: { attempts, ...(interviewId ? { interviewId } : {}) } },
    );
    this.name = 'ClaimContended';
  }
}

/** A lease from the server's clock, as long as the team's setting says. */
const leaseEnd = sql<Date>`now() + make_interval(mins => (select lease_minutes from team_settings))`;
const me = sql<string>`current_user`;

/**
 * Who holds which interview. The database decides: a claim is taken, renewed and released by its holder's own login
 * (row-level security on `current_user`), a supervisor may give it to someone else, and a lapsed one is free.
 */
export class ClaimRecords {
  constructor(private readonly db: Kysely<RecordDatabase>) {}

  /**
   * Claims the oldest interview to review that nobody holds, within a view of the queue when one is given (its
   * session status, second review, age, risk and search). The queue row is locked `FOR UPDATE SKIP LOCKED`, so
   * analysts taking at once pass over each other's candidates instead of waiting on them; the claim's primary key is
   * what makes a double claim impossible.
   */
  async takeNext(environment: string, within?: TakeWithin): Promise<Claim | undefined> {
    if (within && within.filter.state !== 'all' && within.filter.state !== 'toReview') return undefined;
    return retryLostRaces(async () => {
      const taken = await this.db.transaction().execute(async (tx) => {
        // The claim is looked up per queue row (a lateral subquery, so by its key whatever the planner believes):
        // with a join, a young claims table without statistics yet was read whole for every queue row (30-200 ms a
        // take at a few hundred claims; bench/claims.bench.ts).
        const next = await tx
          .selectFrom('queue_entries')
          .leftJoinLateral(
            (eb) =>
              eb
                .selectFrom('claims as c')
                .select('c.holder')
                .whereRef('c.environment', '=', 'queue_entries.environment')
                .whereRef('c.interview_id', '=', 'queue_entries.interview_id')
                .where('c.expires_at', '>', sql<Date>`now()`)
                .limit(1)
                .as('held'),
            (join) => join.onTrue(),
          )
          .select('queue_entries.interview_id')
          .where('queue_entries.environment', '=', environment)
          // Opened once and left (in review, nobody holding it) is as free as never opened.
          .where('queue_entries.local_state', '<>', 'decided')
          .where('held.holder', 'is', null)
          .$if(within !== undefined, (q) => q.where((eb) => takeable(eb, within!.filter, within!.search)))
          .orderBy('queue_entries.added_at')
          .orderBy('queue_entries.interview_id')
          .limit(1)
          .forUpdate('queue_entries')
          .skipLocked()
          .executeTakeFirst();
        if (!next) return null;
        // Undefined when someone claimed it after this statement's snapshot (the caller too, in another window):
        // look again.
        return takeIfFree(tx, environment, next.interview_id, { renewOwn: false });
      });
      return taken === undefined ? LOST : (taken ?? undefined);
    }, undefined);
  }

  /** Claims this interview, or renews it when already held; held by someone else, says by whom. */
  async claim(environment: string, interviewId: string): Promise<Claim> {
    return retryLostRaces(async () => {
      let refused: unknown;
      const claim = await takeIfFree(this.db, environment, interviewId, { renewOwn: true }).catch((error: unknown) => {
        if (errorCode(error) !== REFUSED) throw error;
        refused = error;
        return undefined;
      });
      if (claim) return claim;
      const held = await this.holderOf(environment, interviewId);
      if (held !== undefined) throw claimedByOther(interviewId, held.holder, held.claimed_at.toISOString());
      // Refused with nobody holding it: this login may not claim at all (not a reviewer).
      if (refused) throw refused;
      // Otherwise it lapsed between the two statements: it is free now.
      return LOST;
    }, interviewId);
  }

  /** Extends the caller's own claim; undefined when they do not hold it (any more). */
  async renew(environment: string, interviewId: string): Promise<Claim | undefined> {
    const row = await this.db
      .updateTable('claims')
      .set({ expires_at: leaseEnd })
      .where('environment', '=', environment)
      .where('interview_id', '=', interviewId)
      .where('holder', '=', me)
      .where('expires_at', '>', sql<Date>`now()`)
      .returningAll()
      .executeTakeFirst();
    return row && fromRow(row);
  }

  /** Lets go of the caller's own claim (nothing happens to anyone else's). */
  /** Gives up this login's claim; whether it held one that had not lapsed (a lapsed one is removed all the same). */
  async release(environment: string, interviewId: string, anyHolder = false): Promise<boolean> {
    const rows = await this.db
      .deleteFrom('claims')
      .where('environment', '=', environment)
      .where('interview_id', '=', interviewId)
      // Another's live claim: a supervisor's power (omni_may('release-claim')); row-level security keeps it from others.
      .$if(!anyHolder, (q) => q.where('holder', '=', me))
      .returning(sql<boolean>`expires_at > now()`.as('held'))
      .execute();
    return rows.some((r) => r.held);
  }

  /** A supervisor gives the interview to another reviewer, whoever held it. */
  async reassign(environment: string, interviewId: string, to: string): Promise<Claim> {
    const { rows } = await sql<{ reviewer: boolean }>`
      select case when exists (select from pg_roles where rolname = ${to} and rolcanlogin and not rolsuper)
        then pg_has_role(${to}, 'omni_reviewer', 'member') else false end as reviewer`.execute(this.db);
    if (!rows[0]?.reviewer) throw notAReviewer(to);
    try {
      const row = await this.db
        .insertInto('claims')
        .values({ environment, interview_id: interviewId, holder: to, expires_at: leaseEnd })
        .onConflict((oc) =>
          oc
            .columns(['environment', 'interview_id'])
            .doUpdateSet({ holder: to, claimed_at: sql<Date>`now()`, expires_at: leaseEnd }),
        )
        .returningAll()
        .executeTakeFirstOrThrow();
      return fromRow(row);
    } catch (error) {
      if (errorCode(error) === REFUSED) throw notSupervisor();
      // The database's own check of the same (migration 0016): a login without the right to log in, or one gone since.
      if ((error as { constraint?: unknown }).constraint === 'claims_holder_member') throw notAReviewer(to);
      throw error;
    }
  }

  /** Every claim in force in the environment, oldest first. */
  async holders(environment: string): Promise<Claim[]> {
    const rows = await this.db
      .selectFrom('claims')
      .selectAll()
      .where('environment', '=', environment)
      .where('expires_at', '>', sql<Date>`now()`)
      .orderBy('claimed_at')
      .orderBy('interview_id')
      .execute();
    return rows.map(fromRow);
  }

  private async holderOf(environment: string, interviewId: string) {
    return this.db
      .selectFrom('claims')
      .select(['holder', 'claimed_at'])
      .where('environment', '=', environment)
      .where('interview_id', '=', interviewId)
      .where('expires_at', '>', sql<Date>`now()`)
      .executeTakeFirst();
  }
}

/**
 * Inserts the caller's claim, or takes over the row when it lapsed (or, with `renewOwn`, is their own); undefined
 * when it is held. Renewing one's own keeps when it was first claimed.
 */
async function takeIfFree(
  db: Kysely<RecordDatabase>,
  environment: string,
  interviewId: string,
  { renewOwn }: { renewOwn: boolean },
) {
  const row = await db
    .insertInto('claims')
    .values({ environment, interview_id: interviewId, expires_at: leaseEnd })
    .onConflict((oc) =>
      oc
        .columns(['environment', 'interview_id'])
        .doUpdateSet({
          holder: me,
          claimed_at: sql<Date>`case when claims.holder = current_user and claims.expires_at > now()
            then claims.claimed_at else now() end`,
          expires_at: leaseEnd,
        })
        .where(({ or, eb }) => {
          const lapsed = eb('claims.expires_at', '<=', sql<Date>`now()`);
          return renewOwn ? or([eb('claims.holder', '=', me), lapsed]) : lapsed;
        }),
    )
    .returningAll()
    .executeTakeFirst();
  return row && fromRow(row);
}

function fromRow(row: Selectable<ClaimTable>): Claim {
  return {
    environment: row.environment,
    interviewId: row.interview_id,
    holder: row.holder,
    claimedAt: row.claimed_at.toISOString(),
    expiresAt: row.expires_at.toISOString(),
  };
}

export function errorCode(error: unknown): string | undefined {
  const { code } = (error ?? {}) as { code?: unknown };
  return typeof code === 'string' ? code : undefined;
}

function notSupervisor(): ReviewError {
  return new ReviewError(
    'NOT_SUPERVISOR',
    {
      en: 'Only a supervisor can reassign an interview.',
      es: 'Solo un supervisor puede reasignar una entrevista.',
    },
    {
      en: 'Ask a supervisor of your team.',
      es: 'Pídeselo a un supervisor de tu equipo.',
    },
  );
}

function notAReviewer(login: string): ReviewError {
  return new ReviewError(
    'NOT_A_REVIEWER',
    {
      en: `${login} is not a reviewer of this team database.`,
      es: `${login} no es revisor de esta base de datos del equipo.`,
    },
    {
      en: 'Choose a member of the team; an administrator adds new ones (docs/team-database.sql).',
      es: 'Elige a un miembro del equipo; un administrador agrega a los nuevos (docs/team-database.sql).',
    },
  );
}
