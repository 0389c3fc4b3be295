import { type Migration, sql } from 'kysely';
import { pinSearchPath } from './pin-search-path';

/**
 * Red team 22, where a login could still make the record say what did not happen, or change what it meant:
 * - 0017's token entries were not reserved: any login could write "token removed, of ana" where nothing was removed.
 *   They are the database's now, and name the sealed token they are about by its SHA-256; so is naming whose claim,
 *   entry or decision something was (`of`, `addedBy`, `decidedBy`) in any entry.
 * - One UPDATE put every decided interview back to "To review" with its decision still on file: Take next served
 *   interviews nobody could decide, and the Team screen counted them as waiting. Decided stays decided while its
 *   decision is open.
 * - A write the service refused could be settled "sent" later by its writer, after the interview had changed hands:
 *   settling one as sent is the live holder's, as sending it is.
 * - Setting the team's rules was a column grant only: it asks `omni_may('set-rules')` now, as every other power does.
 * - A reason code relabelled changed what every past decision's reason says, and the trail's entry, codes only, read
 *   the same before and after: the entry lists each code with its labels.
 * - A past decision's reason showed the code's label as the list says now: each decision keeps the labels its code had
 *   when it was recorded, written by the database.
 * - A queue entry could be added as if it had waited since 2000, first in everyone's Take next: it is added now, or,
 *   put back after a removal, when the removal's entry (the database's) says it had been added.
 */
export const whatOnlyTheDatabaseSays: Migration = {
  async up(db) {
    // 0016's reserved entries, with 0017's token entries.
    await sql`
      create or replace function audit_entries_decisions_reserved() returns trigger language plpgsql as $$
      begin
        if omni_superuser() then return new; end if;
        if json_typeof(new.detail) = 'object' and new.detail->'by' is not null
           and new.detail->>'by' is distinct from current_user then
          raise exception 'an audit entry names its own login (%) as who did it, not %', current_user, new.detail->>'by'
            using errcode = 'insufficient_privilege';
        end if;
        -- Whose claim, entry or decision it was is the database's to say (its own entries name them); the app writes
        -- none of these keys, so an entry of a login's that does names someone unseen (red team 22).
        if pg_trigger_depth() < 2 and json_typeof(new.detail) = 'object'
           and (new.detail->'of' is not null or new.detail->'addedBy' is not null
             or new.detail->'decidedBy' is not null) then
          raise exception 'a % entry naming whose it was is written by the database itself', new.action
            using errcode = 'insufficient_privilege';
        end if;
        if new.action not in ('proposed', 'decided', 'confirmed', 'overturned', 'noted', 'named', 'tokenShared',
                              'tokenUnshared')
           and not (new.action = 'removed' and json_typeof(new.detail) = 'object' and new.detail->'addedAt' is not null)
        then
          return new;
        end if;
        if pg_trigger_depth() < 2 then
          raise exception 'a % entry is written by the database itself when what it says is recorded', new.action
            using errcode = 'insufficient_privilege';
        end if;
        if has_database_privilege(session_user, current_database(), 'temporary')
           or exists (select from pg_namespace n where has_schema_privilege(session_user, n.oid, 'create')) then
          raise exception '% may create objects of its own in %, so the database cannot tell its own entries from that login''s: as the owner, revoke TEMPORARY on the database and CREATE on its schemas from it',
            session_user, current_database() using errcode = 'insufficient_privilege';
        end if;
        return new;
      end $$`.execute(db);
    await sql`
      create or replace function shared_session_tokens_on_trail() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' then
          perform omni_trail(old.environment, old.interview_id, 'tokenUnshared', json_strip_nulls(json_build_object(
            'sealedSha256', encode(sha256(convert_to(old.sealed, 'UTF8')), 'hex'),
            'of', case when old.sealed_by <> current_user then old.sealed_by end)));
        elsif tg_op = 'INSERT' or new.sealed is distinct from old.sealed then
          perform omni_trail(new.environment, new.interview_id, 'tokenShared', json_build_object(
            'sealedSha256', encode(sha256(convert_to(new.sealed, 'UTF8')), 'hex')));
        end if;
        return null;
      end $$`.execute(db);

    // 0010's removal entry says when the entry had been added, so that an undone removal brings that date back.
    await sql`
      create or replace function queue_entries_on_trail() returns trigger language plpgsql as $$
      begin
        if old.environment <> 'demo' then
          perform omni_trail(old.environment, old.interview_id, 'removed', json_strip_nulls(json_build_object(
            'addedBy', case when old.added_by is distinct from current_user then old.added_by end,
            'addedAt', to_char(old.added_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))));
        end if;
        return null;
      end $$`.execute(db);
    // 0009's clock: an entry is added now, or put back as of when the latest removal's entry says it was added.
    await sql`
      create or replace function queue_entries_clock() returns trigger language plpgsql as $$
      declare
        added text;
      begin
        if omni_superuser() then return new; end if;
        if tg_op = 'INSERT' then
          -- Not a time at all: left for 0016's check to refuse.
          if not isfinite(new.added_at) then return new; end if;
          select detail->>'addedAt' into added from audit_entries
            where environment = new.environment and interview_id = new.interview_id and action = 'removed'
            order by seq desc limit 1;
          new.added_at := greatest(least(new.added_at, clock_timestamp()),
            case when added ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}[.][0-9]{3}Z$' then added::timestamptz
              else clock_timestamp() end);
        else
          new.added_at := old.added_at;
        end if;
        return new;
      end $$`.execute(db);

    await sql`
      create function queue_entries_decided_stays() returns trigger language plpgsql as $$
      begin
        if omni_superuser() or pg_trigger_depth() > 1 then return new; end if;
        -- Removed and added again (red team 23), it comes back decided. An entry still there is written as an update
        -- (INSERT ... ON CONFLICT), judged below.
        if tg_op = 'INSERT' then
          if omni_decision_open(new.environment, new.interview_id) and not exists (select from queue_entries q
               where q.environment = new.environment and q.interview_id = new.interview_id) then
            new.local_state := 'decided';
          end if;
          return new;
        end if;
        if old.local_state = 'decided' and new.local_state is distinct from 'decided'
           and omni_decision_open(old.environment, old.interview_id) then
          raise exception 'interview % has its decision on file, so it stays decided', old.interview_id
            using errcode = 'check_violation', constraint = 'queue_decided_while_decision_open';
        end if;
        return new;
      end $$`.execute(db);
    await sql`
      create trigger queue_entries_decided_stays before insert or update on queue_entries
      for each row execute function queue_entries_decided_stays()`.execute(db);

    await sql`
      create function service_writes_sent_by_holder() returns trigger language plpgsql as $$
      begin
        if not omni_superuser() and new.state = 'sent' and old.state is distinct from 'sent' then
          perform omni_hold(new.environment, new.interview_id);
        end if;
        return new;
      end $$`.execute(db);
    await sql`
      create trigger service_writes_sent_by_holder before update on service_writes
      for each row execute function service_writes_sent_by_holder()`.execute(db);

    await sql`
      create function team_settings_may() returns trigger language plpgsql as $$
      begin
        if not omni_superuser() and not omni_may('set-rules') then
          raise exception 'the team''s rules are set by a supervisor' using errcode = 'insufficient_privilege';
        end if;
        return new;
      end $$`.execute(db);
    await sql`
      create trigger team_settings_may before update on team_settings
      for each row execute function team_settings_may()`.execute(db);

    // Each decision keeps the labels its code had when it was recorded; earlier ones have none (shown as the list says).
    await sql`alter table decisions add column reason_label_en text, add column reason_label_es text`.execute(db);
    await sql`
      create function decisions_reason_label() returns trigger language plpgsql as $$
      begin
        if tg_op = 'UPDATE' then
          new.reason_label_en := old.reason_label_en;
          new.reason_label_es := old.reason_label_es;
        else
          select label_en, label_es into new.reason_label_en, new.reason_label_es from reason_codes
            where decision = new.decision and code = new.reason_code;
        end if;
        return new;
      end $$`.execute(db);
    await sql`
      create trigger decisions_reason_label before insert or update on decisions
      for each row execute function decisions_reason_label()`.execute(db);

    // 0010's entry of the reason codes, each with its labels (as JSON strings, so no label can read as two codes)
    // and the retired ones too, which past decisions carry: any relabel is a change the trail shows (red team 23).
    await sql`
      create or replace function reason_codes_on_trail() returns trigger language plpgsql as $$
      declare
        listed json := json_build_object('reasonCodes', (
          select coalesce(string_agg(decision || ':' || code || ' ' || to_json(label_en)::text || ' / '
            || to_json(label_es)::text || case when active then '' else ' (retired)' end, ', '
            order by decision, position, code), '')
          from reason_codes));
      begin
        if not exists (
          select from audit_entries
          where environment = 'team' and action = 'teamSettingsChanged' and interview_id is null
            and actor = current_user and xmin::text = (pg_current_xact_id()::text::bigint % 4294967296)::text
            and detail::text = listed::text) then
          perform omni_trail('team', null, 'teamSettingsChanged', listed);
        end if;
        return null;
      end $$`.execute(db);

    await pinSearchPath(db, [
      'audit_entries_decisions_reserved()',
      'queue_entries_on_trail()',
      'queue_entries_clock()',
      'shared_session_tokens_on_trail()',
      'queue_entries_decided_stays()',
      'service_writes_sent_by_holder()',
      'team_settings_may()',
      'reason_codes_on_trail()',
      'decisions_reason_label()',
    ]);
  },
};
