import { type Migration, sql } from 'kysely';
import { pinSearchPath } from './pin-search-path';

/**
 * A decision is written on the audit trail by the database, in the same transaction that records it: proposed or
 * decided when it is inserted, confirmed or overturned when it is reviewed. The app wrote those entries after the
 * decision, so a decision made with psql left none, and any member could write "decided" or "confirmed" entries of
 * their own on an interview nobody decided (a red-team pass did both). Now the entries are the decisions table's own
 * words, and a client may not send one.
 *
 * Who decided is `current_user`; the embedded engine's one user (a superuser) names the person as the app knows them
 * (`omni.by`, set in the decision's transaction), and imports the decisions of earlier versions with their entries as
 * they were (`omni.importing`), writing none.
 */
export const decisionsOnTheTrail: Migration = {
  async up(db) {
    const run = (query: string) => sql.raw(query).execute(db);

    await run(`
      create function decisions_recorded_on_trail() returns trigger language plpgsql as $$
      declare
        by_name text := case when omni_superuser() then nullif(current_setting('omni.by', true), '') else current_user end;
      begin
        if omni_superuser() and current_setting('omni.importing', true) = 'on' then return null; end if;
        if tg_op = 'INSERT' then
          perform omni_trail(new.environment, new.interview_id,
            case when new.status = 'proposed' then 'proposed' else 'decided' end,
            json_strip_nulls(json_build_object('decision', new.decision, 'reasonCode', new.reason_code,
              'reason', new.reason, 'acknowledgedFindings', new.acknowledged_findings, 'by', by_name)));
        elsif new.status is distinct from old.status and new.status in ('confirmed', 'overturned') then
          perform omni_trail(new.environment, new.interview_id, new.status,
            json_strip_nulls(json_build_object('decision', new.decision, 'reason', new.review_reason, 'by', by_name)));
        end if;
        return null;
      end $$`);
    await run(`
      create trigger decisions_recorded_on_trail after insert or update on decisions
      for each row execute function decisions_recorded_on_trail()`);

    // The decisions' entries are the database's alone, as 0011 keeps the powers' (one level down, from a login that
    // cannot make objects of its own).
    await run(`
      create function audit_entries_decisions_reserved() returns trigger language plpgsql as $$
      begin
        if omni_superuser() or new.action not in ('proposed', 'decided', 'confirmed', 'overturned') then
          return new;
        end if;
        if pg_trigger_depth() < 2 then
          raise exception 'a % entry is written by the database itself when the decision is recorded', new.action
            using errcode = 'insufficient_privilege';
        end if;
        if has_database_privilege(session_user, current_database(), 'temporary')
           or exists (select from pg_namespace n where has_schema_privilege(session_user, n.oid, 'create')) then
          raise exception '% may create objects of its own in %, so the database cannot tell its own entries from that login''s: as the owner, revoke TEMPORARY on the database and CREATE on its schemas from it',
            session_user, current_database() using errcode = 'insufficient_privilege';
        end if;
        return new;
      end $$`);
    await run(`
      create trigger audit_entries_decisions_reserved before insert on audit_entries
      for each row execute function audit_entries_decisions_reserved()`);

    await pinSearchPath(db, ['decisions_recorded_on_trail()', 'audit_entries_decisions_reserved()']);
  },
};
