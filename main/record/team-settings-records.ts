import { type Kysely, sql } from 'kysely';
import type { FourEyesRule, TeamRole, TeamSettings } from '../../common/team-review';
import type { DecisionKind } from '../../common/ipc/interview';
import type { ReasonCode } from '../../common/ipc/team';
import { ReviewError } from '../errors';
import { errorCode } from './claim-records';
import type { RecordDatabase } from './schema';

/** The team's rules (one row, changed by supervisors only: the grant says so), and who the caller is to the database. */
export class TeamSettingsRecords {
  constructor(private readonly db: Kysely<RecordDatabase>) {}

  async get(): Promise<TeamSettings> {
    const row = await this.db
      .selectFrom('team_settings')
      .select(['four_eyes', 'target_hours', 'lease_minutes'])
      .executeTakeFirstOrThrow();
    return { fourEyes: row.four_eyes as FourEyesRule, targetHours: row.target_hours, leaseMinutes: row.lease_minutes };
  }

  /** Every reason code, retired ones too, kind by kind in the team's order. */
  async reasonCodes(): Promise<ReasonCode[]> {
    const rows = await this.db
      .selectFrom('reason_codes')
      .selectAll()
      .orderBy('decision')
      .orderBy('position')
      .orderBy('code')
      .execute();
    return rows.map((r) => ({
      decision: r.decision as DecisionKind,
      code: r.code,
      en: r.label_en,
      es: r.label_es,
      active: r.active,
    }));
  }

  /**
   * The whole list, in its order: each code added or relabelled, and every code left out retired (decisions keep the
   * codes they used, so none is removed). Row-level security lets supervisors alone write (migration 0007).
   */
  async setReasonCodes(codes: readonly ReasonCode[]): Promise<void> {
    try {
      await this.db.transaction().execute(async (tx) => {
        const listed = codes.map((c) => `${c.decision} ${c.code}`);
        await tx
          .updateTable('reason_codes')
          .set({ active: false })
          .where('active', '=', true)
          .$if(listed.length > 0, (q) => q.where(sql<string>`decision || ' ' || code`, 'not in', listed))
          .execute();
        for (const [position, c] of codes.entries())
          await tx
            .insertInto('reason_codes')
            .values({ decision: c.decision, code: c.code, label_en: c.en, label_es: c.es, active: c.active, position })
            .onConflict((oc) =>
              oc.columns(['decision', 'code']).doUpdateSet({
                label_en: c.en,
                label_es: c.es,
                active: c.active,
                position,
              }),
            )
            .execute();
      });
    } catch (error) {
      // 42501: a grant refused; a row-level security policy refuses an insert with the same code.
      if (errorCode(error) !== '42501') throw error;
      throw new ReviewError(
        'NOT_SUPERVISOR',
        {
          en: "Only a supervisor can change the team's reason codes.",
          es: 'Solo un supervisor puede cambiar los códigos de motivo del equipo.',
        },
        { en: 'Ask a supervisor of your team.', es: 'Pídeselo a un supervisor de tu equipo.' },
      );
    }
  }

  async set(settings: TeamSettings): Promise<void> {
    try {
      await this.db
        .updateTable('team_settings')
        .set({
          four_eyes: settings.fourEyes,
          target_hours: settings.targetHours,
          lease_minutes: settings.leaseMinutes,
        })
        .execute();
    } catch (error) {
      if (errorCode(error) !== '42501') throw error;
      throw new ReviewError(
        'NOT_SUPERVISOR',
        {
          en: "Only a supervisor can change the team's rules.",
          es: 'Solo un supervisor puede cambiar las reglas del equipo.',
        },
        { en: 'Ask a supervisor of your team.', es: 'Pídeselo a un supervisor de tu equipo.' },
      );
    }
  }

  /** The login and its team roles, as the database sees them (the embedded engine's one user holds all three). */
  async whoAmI(): Promise<{ user: string; roles: TeamRole[] }> {
    const { rows } = await sql<{ user: string; reviewer: boolean; supervisor: boolean; admin: boolean }>`
      select current_user as "user",
        pg_has_role('omni_reviewer', 'member') as reviewer,
        pg_has_role('omni_supervisor', 'member') as supervisor,
        pg_has_role('omni_admin', 'member') as admin`.execute(this.db);
    const row = rows[0]!;
    const roles = (['reviewer', 'supervisor', 'admin'] as const).filter((role) => row[role]);
    return { user: row.user, roles };
  }
}
