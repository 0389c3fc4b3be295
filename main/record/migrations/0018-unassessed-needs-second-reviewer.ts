import { type Migration, sql } from 'kysely';
import { pinSearchPath } from './pin-search-path';

/**
 * Four eyes' "high-risk approvals" rule counts an interview no check ran on: its latest reading is `unassessed` (the
 * app files it so since this version, never `low`), and nothing in the service's answer can judge it low risk, as 0006
 * already held for one nobody read. The latest reading decides, so checks that run later take the rule off again.
 * Readings stay what clients report (docs/architecture.md); the "every approval" rule needs no such trust. The queue
 * shows an assessed level over `unassessed`, whichever came first.
 */
export const unassessedNeedsSecondReviewer: Migration = {
  async up(db) {
    await sql`
      create function decisions_unassessed() returns trigger language plpgsql as $$
      declare
        rule text;
        latest text;
      begin
        if omni_superuser() or new.status <> 'final' or new.decision <> 'approve' then return new; end if;
        select four_eyes into rule from team_settings;
        if rule is distinct from 'high-risk-approvals' then return new; end if;
        select level into latest from risk_readings
          where environment = new.environment and interview_id = new.interview_id order by id desc limit 1;
        if latest = 'unassessed' then
          raise exception 'four eyes: no check ran on interview %, so this approval needs a second reviewer',
            new.interview_id using errcode = 'check_violation', constraint = 'decisions_needs_second_reviewer';
        end if;
        return new;
      end $$`.execute(db);
    await sql`
      create trigger decisions_unassessed before insert on decisions
      for each row execute function decisions_unassessed()`.execute(db);
    // The queue shows the highest reading on file (0012), where a level it does not know ranks above medium: an
    // interview read once before its checks ran would read "not assessed" for good. Any assessed reading wins over it.
    // Named to run after 0012's queue_entries_facts and 0016's queue_entries_reported_times.
    await sql`
      create function queue_entries_risk_assessed() returns trigger language plpgsql as $$
      declare
        assessed text;
      begin
        if new.risk is distinct from 'unassessed' then return new; end if;
        select level into assessed from risk_readings
          where environment = new.environment and interview_id = new.interview_id and level <> 'unassessed'
          order by case lower(level) when 'high' then 0 when 'medium' then 2 when 'low' then 3 else 1 end, id desc
          limit 1;
        if assessed is not null then new.risk := assessed; end if;
        return new;
      end $$`.execute(db);
    await sql`
      create trigger queue_entries_risk_assessed before insert or update on queue_entries
      for each row execute function queue_entries_risk_assessed()`.execute(db);
    await pinSearchPath(db, ['decisions_unassessed()', 'queue_entries_risk_assessed()']);
  },
};
