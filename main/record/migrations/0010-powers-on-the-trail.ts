import { type Migration, sql } from 'kysely';
import { pinSearchPath } from './pin-search-path';

/**
 * A power used on another's row is written on the audit trail by the database itself, in the same transaction: a
 * supervisor who releases or hands over a claim, removes another's queue entry or changes the team's rules with psql
 * leaves the same entry the app would, and an admin who removes a decision leaves one too. The app writes none of
 * these entries itself any more (main/review/team-desk.ts, bulk.ts), so each is written once, whoever sent the change.
 *
 * Entries about the whole team (its rules and reason codes) belong to no environment: they are filed under 'team'
 * (`TEAM_WIDE_ENVIRONMENT`, common/team-review.ts).
 */
export const powersOnTheTrail: Migration = {
  async up(db) {
    const run = (query: string) => sql.raw(query).execute(db);

    // One entry, as the app's own appends make it: the chain's trigger (0006, 0009) dates, attributes and chains it.
    await run(`
      create function omni_trail(env text, interview text, what text, detail json) returns void language sql as $$
        insert into audit_entries (at, environment, interview_id, action, detail)
        values (to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), env, interview, what, detail)
      $$`);

    // Claims: another's live claim released, or a claim given to someone else or taken from them.
    await run(`
      create function claims_on_trail() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' then
          if old.holder <> current_user and old.expires_at > now() then
            perform omni_trail(old.environment, old.interview_id, 'released', json_build_object('of', old.holder));
          end if;
        elsif tg_op = 'INSERT' then
          if new.holder <> current_user then
            perform omni_trail(new.environment, new.interview_id, 'reassigned', json_build_object('to', new.holder));
          end if;
        elsif new.holder <> old.holder and (new.holder <> current_user or old.expires_at > now()) then
          perform omni_trail(new.environment, new.interview_id, 'reassigned', case when old.expires_at > now()
            then json_build_object('to', new.holder, 'of', old.holder) else json_build_object('to', new.holder) end);
        end if;
        return null;
      end $$`);
    await run(`
      create trigger claims_on_trail after insert or update or delete on claims
      for each row execute function claims_on_trail()`);

    // Queue entries: every removal outside the demo (whose reset empties it whole), naming whose entry it was when
    // it was another's.
    await run(`
      create function queue_entries_on_trail() returns trigger language plpgsql as $$
      begin
        if old.environment <> 'demo' then
          perform omni_trail(old.environment, old.interview_id, 'removed', case
            when old.added_by is distinct from current_user and old.added_by is not null
              then json_build_object('addedBy', old.added_by) else '{}'::json end);
        end if;
        return null;
      end $$`);
    await run(`
      create trigger queue_entries_on_trail after delete on queue_entries
      for each row execute function queue_entries_on_trail()`);

    // Decisions: removed by an admin (the demo's are reset by anyone, unrecorded as before).
    await run(`
      create function decisions_on_trail() returns trigger language plpgsql as $$
      begin
        if old.environment <> 'demo' then
          perform omni_trail(old.environment, old.interview_id, 'decisionRemoved',
            json_build_object('decision', old.decision, 'decisionStatus', old.status, 'decidedBy', old.decided_by));
        end if;
        return null;
      end $$`);
    await run(`
      create trigger decisions_on_trail after delete on decisions
      for each row execute function decisions_on_trail()`);

    // The team's rules, when they change.
    await run(`
      create function team_settings_on_trail() returns trigger language plpgsql as $$
      begin
        if (new.four_eyes, new.target_hours, new.lease_minutes)
           is distinct from (old.four_eyes, old.target_hours, old.lease_minutes) then
          perform omni_trail('team', null, 'teamSettingsChanged', json_build_object(
            'fourEyes', new.four_eyes, 'targetHours', new.target_hours, 'leaseMinutes', new.lease_minutes));
        end if;
        return null;
      end $$`);
    await run(`
      create trigger team_settings_on_trail after update on team_settings
      for each row execute function team_settings_on_trail()`);

    // The reason codes: saved as many statements in one transaction, so written once, at its commit, with the list
    // in force then (an entry this transaction already wrote with that very list is enough).
    await run(`
      create function reason_codes_on_trail() returns trigger language plpgsql as $$
      declare
        listed json := json_build_object('reasonCodes', (
          select coalesce(string_agg(decision || ':' || code, ', ' order by decision, position, code), '')
          from reason_codes where active));
      begin
        if not exists (
          select from audit_entries
          where environment = 'team' and action = 'teamSettingsChanged' and interview_id is null
            and actor = current_user and xmin::text = (pg_current_xact_id()::text::bigint % 4294967296)::text
            and detail::text = listed::text) then
          perform omni_trail('team', null, 'teamSettingsChanged', listed);
        end if;
        return null;
      end $$`);
    await run(`
      create constraint trigger reason_codes_on_trail after insert or update on reason_codes
      deferrable initially deferred for each row execute function reason_codes_on_trail()`);

    await pinSearchPath(db, [
      'omni_trail(text, text, text, json)',
      'claims_on_trail()',
      'queue_entries_on_trail()',
      'decisions_on_trail()',
      'team_settings_on_trail()',
      'reason_codes_on_trail()',
    ]);
  },
};
