import { type Kysely, sql } from 'kysely';
import type { AuditAction, AuditEntry } from '../../common/views';
import type { DecisionStatus, TeamRole } from '../../common/team-review';
import type { DecisionKind } from '../../common/ipc/interview';
import type { DecisionsByCodeRow, ProposalView } from '../../common/ipc/team';
import type { RecordDatabase } from './schema';
import { ENTRY_BYTES_SQL } from './chain-pages.mjs';
import { finiteIso } from './finite-time';

/** Days of decisions the supervisor's view counts. */
const DECISION_DAYS = 14;

/** An audit search's entries in all (texts and details), at most. */
const SEARCH_BYTES = 8 * 1024 * 1024;
/** Proposals listed on the Team overview at most. */
const PROPOSALS_SHOWN = 500;

/**
 * What the supervisor reads about the team's work: queue age, proposals waiting, decisions per reviewer and day, the
 * members and their roles, and the team's audit trail searched. Read only; row-level security decides what a login sees.
 */
export class TeamOverviewRecords {
  constructor(private readonly db: Kysely<RecordDatabase>) {}

  async waiting(environment: string, targetHours: number, now: Date) {
    const pastTargetBefore = new Date(now.getTime() - targetHours * 3_600_000);
    const row = await this.db
      .selectFrom('queue_entries')
      .select((eb) => [
        eb.fn.countAll<string>().as('count'),
        eb.fn.min('added_at').as('oldest'),
        eb.fn.countAll<string>().filterWhere('added_at', '<', pastTargetBefore).as('past_target'),
      ])
      .where('environment', '=', environment)
      .where('local_state', '!=', 'decided')
      .executeTakeFirstOrThrow();
    const oldest = finiteIso(row.oldest);
    return {
      count: Number(row.count),
      ...(oldest ? { oldestAddedAt: oldest } : {}),
      pastTarget: Number(row.past_target),
    };
  }

  async proposals(environment: string): Promise<ProposalView[]> {
    const rows = await this.db
      .selectFrom('decisions')
      .select(['interview_id', 'decision', 'reason_code', 'reason', 'decided_by', 'decided_at'])
      .where('environment', '=', environment)
      .where('status', '=', 'proposed')
      .orderBy('decided_at')
      // The oldest waiting first; a team with more waiting than a screen can list sees these (red team 15).
      .limit(PROPOSALS_SHOWN)
      .execute();
    return rows.map((r) => ({
      interviewId: r.interview_id,
      decision: r.decision as DecisionKind,
      ...(r.reason_code !== null ? { reasonCode: r.reason_code } : {}),
      reason: r.reason,
      proposedBy: r.decided_by ?? '',
      proposedAt: r.decided_at.toISOString(),
    }));
  }

  async decisionsByDay(environment: string, now: Date) {
    const since = new Date(now.getTime() - DECISION_DAYS * 86_400_000);
    const day = sql<string>`to_char(decided_at at time zone 'UTC', 'YYYY-MM-DD')`;
    const rows = await this.db
      .selectFrom('decisions')
      .select((eb) => [day.as('day'), 'decided_by', 'status', eb.fn.countAll<string>().as('count')])
      .where('environment', '=', environment)
      .where('decided_at', '>=', since)
      .groupBy([day, 'decided_by', 'status'])
      .orderBy('day', 'desc')
      .orderBy('decided_by')
      .execute();
    return rows.map((r) => ({
      day: r.day,
      reviewer: r.decided_by ?? '',
      status: r.status as DecisionStatus,
      count: Number(r.count),
    }));
  }

  /** Decisions per day (UTC), kind and reason code, the last 14 days; an overturned proposal counts for nothing. */
  async decisionsByCode(environment: string, now: Date): Promise<DecisionsByCodeRow[]> {
    const since = new Date(now.getTime() - DECISION_DAYS * 86_400_000);
    const day = sql<string>`to_char(decided_at at time zone 'UTC', 'YYYY-MM-DD')`;
    const rows = await this.db
      .selectFrom('decisions')
      .select((eb) => [day.as('day'), 'decision', 'reason_code', eb.fn.countAll<string>().as('count')])
      .where('environment', '=', environment)
      .where('decided_at', '>=', since)
      .where('status', '!=', 'overturned')
      .groupBy([day, 'decision', 'reason_code'])
      .orderBy('day', 'desc')
      .orderBy('decision')
      .orderBy('reason_code')
      .execute();
    return rows.map((r) => ({
      day: r.day,
      decision: r.decision as DecisionKind,
      code: r.reason_code,
      count: Number(r.count),
    }));
  }

  /** The logins in the team's roles (the catalog says who is a member of which). */
  async members(): Promise<{ user: string; roles: TeamRole[] }[]> {
    const rows = await sql<{ user: string; role: string }>`
      select m.rolname as "user", g.rolname as "role"
      from pg_auth_members a
      join pg_roles g on g.oid = a.roleid
      join pg_roles m on m.oid = a.member
      where g.rolname in ('omni_reviewer', 'omni_supervisor', 'omni_admin') and m.rolcanlogin
      order by 1, 2`.execute(this.db);
    const byUser = new Map<string, TeamRole[]>();
    for (const { user, role } of rows.rows) {
      const roles = byUser.get(user) ?? [];
      roles.push(role.replace('omni_', '') as TeamRole);
      byUser.set(user, roles);
    }
    return [...byUser].map(([user, roles]) => ({ user, roles }));
  }

  async searchAudit(query: { reviewer?: string; action?: string; interviewId?: string; limit: number }) {
    let q = this.db.selectFrom('audit_entries');
    if (query.reviewer) q = q.where('actor', '=', query.reviewer);
    if (query.action) q = q.where('action', '=', query.action);
    if (query.interviewId) q = q.where('interview_id', 'ilike', `%${escapeLike(query.interviewId)}%`);
    const [sizes, total] = await Promise.all([
      q
        .select(['seq', sql.raw<string>(ENTRY_BYTES_SQL).as('bytes')])
        .orderBy('seq', 'desc')
        .limit(query.limit)
        .execute(),
      q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    // The newest first, as many as fit in SEARCH_BYTES (one at least): a reviewer's 256 KiB entries made
    // the search's 1,000 a 261 MB answer (red team 15). The screen says how many matched.
    let shown = 0;
    for (let bytes = 0; shown < sizes.length; shown++) {
      bytes += Number(sizes[shown]!.bytes);
      if (shown > 0 && bytes > SEARCH_BYTES) break;
    }
    const seqs = sizes.slice(0, shown).map((r) => r.seq);
    const rows =
      seqs.length === 0
        ? []
        : await this.db
            .selectFrom('audit_entries')
            .selectAll()
            .where('seq', 'in', seqs)
            .orderBy('seq', 'desc')
            .execute();
    const entries: AuditEntry[] = rows.map((r) => ({
      seq: r.seq,
      at: r.at,
      environment: r.environment,
      ...(r.interview_id !== null ? { interviewId: r.interview_id } : {}),
      action: r.action as AuditAction,
      detail: r.detail,
      prevHash: r.prev_hash,
      hash: r.hash,
      ...(r.actor ? { actor: r.actor } : {}),
    }));
    return { entries, matched: Number(total.n) };
  }
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
