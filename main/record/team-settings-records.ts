import { type Kysely, sql } from 'kysely';
import type { FourEyesRule, TeamRole, TeamSettings } from '../../common/team-review';
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
