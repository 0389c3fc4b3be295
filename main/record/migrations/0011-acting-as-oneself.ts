import { type Migration, sql } from 'kysely';
import { pinSearchPath } from './pin-search-path';

/**
 * The rules of 0006–0010 hold for a login acting as itself, in the present, writing what the trail can show. Each of
 * these was a way past them with an analyst's own password (test/main/record/row-owners.test.ts tries every one):
 *
 * - `SET ROLE omni_reviewer` made `current_user` a group: decisions, claims and entries written in no one's name, and
 *   a reviewer confirming their own proposal once back as themselves. Every write now needs `current_user` to be the
 *   login (`session_user`).
 * - A REPEATABLE READ or SERIALIZABLE transaction reads the claims, decisions and rules as they were when it began:
 *   a claim taken since, a decision made since, a rule changed since were not seen. Every write now needs READ
 *   COMMITTED, where each of the rules' statements reads what is committed now.
 * - A queue entry moved to the demo environment (where anyone removes one, unrecorded) or renamed vanished from its
 *   queue: an entry keeps its environment and interview.
 * - Whether a claim is live is judged at the statement's time, not the transaction's start.
 * - An audit entry is kept in a shape every reader can show: its detail at most 256 KiB and 32 levels deep (an
 *   entry nested thousands deep broke the screens that show it, and stays forever); the entries the database writes
 *   itself (0010) are only its own; a checkpoint names an entry on the trail by its hash, and the stretch after the
 *   previous checkpoint (main/trail/checkpoints.ts takes them so), or it would stop the next ones or raise false alarms.
 * - No login makes temporary objects (a temporary table's trigger wrote the database's own entries one level down).
 * - A write to the service names a decision only as its note (a sent note tied to a demo decision went with it); no
 *   interview's row is of the environment `team`; a risk reading's findings are a short list of text.
 *
 * The embedded engine's one user (a superuser) is bound by none of these: it imports what earlier versions wrote.
 */
export const actingAsOneself: Migration = {
  async up(db) {
    const run = (query: string) => sql.raw(query).execute(db);

    // No login makes temporary objects: a temporary table's own trigger, inserting what its writer chose, would run
    // one level down, where the trail takes an entry for one the database wrote itself (pg_trigger_depth() below).
    // The database's owner (who migrates, as README says) takes the right from every login; if this login is not that
    // owner and the right is still there, the migration stops and says so rather than leave the hole open.
    await run(`
      do $$
      begin
        if has_database_privilege('public', current_database(), 'temporary') then
          execute format('revoke temporary on database %I from public', current_database());
        end if;
        if has_database_privilege('omni_reviewer', current_database(), 'temporary') then
          raise exception 'every login of the team may create temporary tables in %: as its owner, run REVOKE TEMPORARY ON DATABASE % FROM PUBLIC (and from omni_reviewer), then start the app again',
            current_database(), current_database()
            using errcode = 'object_not_in_prerequisite_state', constraint = 'omni_temporary_revoked',
              detail = current_database();
        end if;
      end $$`);

    await run(`
      create function omni_acting_as_oneself() returns trigger language plpgsql as $$
      begin
        -- A foreign key's cascade (a decision's writes to the service, removed with it) runs as the table's owner.
        if pg_trigger_depth() > 1
           and current_user = (select relowner::regrole::text from pg_class where oid = tg_relid) then
          return case when tg_op = 'DELETE' then old else new end;
        end if;
        if not omni_superuser() then
          if current_user <> session_user then
            raise exception 'the team record is written by each login as itself: % is acting as %', session_user,
              current_user using errcode = 'insufficient_privilege';
          end if;
          if current_setting('transaction_isolation') <> 'read committed' then
            raise exception 'the team record is written in READ COMMITTED transactions only (this one is %)',
              current_setting('transaction_isolation') using errcode = 'insufficient_privilege';
          end if;
        end if;
        return case when tg_op = 'DELETE' then old else new end;
      end $$`);
    // Named to fire before every other row trigger of its table (they fire in the order of their names).
    for (const table of [
      'audit_entries',
      'claims',
      'decisions',
      'drafts',
      'queue_entries',
      'reason_codes',
      'risk_readings',
      'saved_views',
      'service_writes',
      'shared_session_tokens',
      'team_settings',
    ])
      await run(`
        create trigger acting_as_oneself before insert or update or delete on ${table}
        for each row execute function omni_acting_as_oneself()`);

    await run(`
      create function queue_entries_key() returns trigger language plpgsql as $$
      begin
        if not omni_superuser() and (new.environment, new.interview_id) is distinct from (old.environment, old.interview_id)
        then
          raise exception 'a queue entry keeps its environment and interview: remove it and add another'
            using errcode = 'insufficient_privilege';
        end if;
        return new;
      end $$`);
    await run(`
      create trigger queue_entries_key before update on queue_entries
      for each row execute function queue_entries_key()`);

    // 0006's, judging a claim live at the statement's time.
    await run(`
      create or replace function omni_hold(env text, interview text) returns void language plpgsql as $$
      declare
        held record;
      begin
        if omni_superuser() then return; end if;
        select holder, claimed_at into held from claims
          where environment = env and interview_id = interview and expires_at > clock_timestamp();
        if held.holder is null then
          raise exception 'interview % is not claimed: open it (which claims it) first', interview
            using errcode = 'insufficient_privilege', constraint = 'claim_required';
        end if;
        if held.holder <> current_user then
          raise exception 'interview % is held by % since %', interview, held.holder, held.claimed_at
            using errcode = 'insufficient_privilege', constraint = 'claim_held_by_other',
              detail = json_build_object('holder', held.holder, 'claimedAt', held.claimed_at, 'interviewId', interview)::text;
        end if;
      end $$`);

    // How deeply a JSON text nests (brackets outside strings); read only when it has enough brackets to matter.
    await run(`
      create function omni_json_depth(json_text text) returns integer language plpgsql immutable as $$
      declare
        depth integer := 0;
        deepest integer := 0;
        in_string boolean := false;
        escaped boolean := false;
        c text;
      begin
        foreach c in array string_to_array(json_text, null) loop
          if in_string then
            if escaped then escaped := false;
            elsif c = '\\' then escaped := true;
            elsif c = '"' then in_string := false;
            end if;
          elsif c = '"' then in_string := true;
          elsif c = '[' or c = '{' then depth := depth + 1; deepest := greatest(deepest, depth);
          elsif c = ']' or c = '}' then depth := depth - 1;
          end if;
        end loop;
        return deepest;
      end $$`);

    // After the chain's trigger (names in order): the entry's seq is known and the chain's lock held.
    await run(`
      create function audit_entries_shape() returns trigger language plpgsql as $$
      declare
        detail_text text := new.detail::text;
        covered bigint;
        previous bigint;
      begin
        if omni_superuser() then return new; end if;
        if octet_length(detail_text) > 262144 then
          raise exception 'an audit entry''s detail is at most 256 KiB' using errcode = 'check_violation';
        end if;
        if length(detail_text) - length(translate(detail_text, '[{', '')) > 32
           and omni_json_depth(detail_text) > 32 then
          raise exception 'an audit entry''s detail nests at most 32 levels' using errcode = 'check_violation';
        end if;
        -- What only the database writes (0010), from its own triggers: never sent by a client. One level down is the
        -- database's only for a login that cannot make triggers of its own (temporary objects, or a schema's).
        if (new.action in ('reassigned', 'teamSettingsChanged', 'decisionRemoved') or new.environment = 'team'
            or (new.action = 'released' and new.detail->'of' is not null)
            or (new.action = 'removed' and new.detail->'addedBy' is not null)) then
          if pg_trigger_depth() < 2 then
            raise exception 'a % entry is written by the database itself when it happens', new.action
              using errcode = 'insufficient_privilege';
          end if;
          if has_database_privilege(session_user, current_database(), 'temporary')
             or exists (select from pg_namespace n where has_schema_privilege(session_user, n.oid, 'create')) then
            raise exception '% may create objects of its own in %, so the database cannot tell its own entries from that login''s: as the owner, revoke TEMPORARY on the database and CREATE on its schemas from it',
              session_user, current_database() using errcode = 'insufficient_privilege';
          end if;
        end if;
        if new.action = 'checkpoint' then
          if json_typeof(new.detail) is distinct from 'object'
             or json_typeof(new.detail->'seq') is distinct from 'number' or (new.detail->>'seq') !~ '^[1-9][0-9]{0,9}$'
             or json_typeof(new.detail->'from') is distinct from 'number' or (new.detail->>'from') !~ '^[1-9][0-9]{0,9}$'
             or json_typeof(new.detail->'hash') is distinct from 'string'
             or json_typeof(new.detail->'token') is distinct from 'string' then
            raise exception 'a checkpoint names the entries it covers (from, seq), the hash of the last and its token'
              using errcode = 'check_violation';
          end if;
          covered := (new.detail->>'seq')::bigint;
          select (detail->>'seq')::bigint into previous from audit_entries
            where action = 'checkpoint' order by seq desc limit 1;
          if (new.detail->>'from')::bigint <> coalesce(previous, 0) + 1
             or covered < (new.detail->>'from')::bigint or covered - (new.detail->>'from')::bigint >= 1000
             or covered >= new.seq
             or new.detail->>'hash' is distinct from (select hash from audit_entries where seq = covered) then
            raise exception 'a checkpoint covers, by its hash, at most 1,000 entries on the trail after the previous one'
              using errcode = 'check_violation';
          end if;
        end if;
        return new;
      end $$`);
    await run(`
      create trigger audit_entries_shape before insert on audit_entries
      for each row execute function audit_entries_shape()`);

    // A write to the service names a decision only as that decision's note: of the same interview, final by its
    // writer or confirmed by them (never a proposal, whose note waits for the second review), so that removing
    // another decision (the demo's, anyone's to reset) cannot take a real write with it.
    await run(`
      create function service_writes_decision() returns trigger language plpgsql as $$
      begin
        if omni_superuser() then return new; end if;
        if new.kind <> 'decision' then
          if new.decision_id is not null then
            raise exception 'only a decision''s note names a decision' using errcode = 'check_violation';
          end if;
          return new;
        end if;
        if not exists (select from decisions d where d.id = new.decision_id
            and d.environment = new.environment and d.interview_id = new.interview_id
            and ((d.status = 'final' and d.decided_by = current_user)
              or (d.status = 'confirmed' and d.reviewed_by = current_user))) then
          raise exception 'a decision''s note goes with a final or confirmed decision of the same interview, by its writer'
            using errcode = 'check_violation';
        end if;
        return new;
      end $$`);
    await run(`
      create trigger service_writes_decision before insert on service_writes
      for each row execute function service_writes_decision()`);

    // 'team' files the entries about the whole team (0010): no interview's row is of that environment.
    for (const table of [
      'claims',
      'decisions',
      'drafts',
      'queue_entries',
      'risk_readings',
      'service_writes',
      'shared_session_tokens',
    ])
      await run(`alter table ${table} add constraint ${table}_not_team check (environment <> 'team')`);

    // A risk reading's findings: a short list of words, as the app files them; kept forever, read by four eyes.
    await run(`
      create function risk_readings_shape() returns trigger language plpgsql as $$
      begin
        if not omni_superuser() and (jsonb_array_length(new.high_findings) > 100
           or exists (select from jsonb_array_elements(new.high_findings) f
             where jsonb_typeof(f) <> 'string' or length(f #>> '{}') > 500)) then
          raise exception 'a risk reading lists at most 100 findings, each a line of text' using errcode = 'check_violation';
        end if;
        return new;
      end $$`);
    await run(`
      create trigger risk_readings_shape before insert on risk_readings
      for each row execute function risk_readings_shape()`);

    await pinSearchPath(db, [
      'omni_acting_as_oneself()',
      'queue_entries_key()',
      'omni_hold(text, text)',
      'omni_json_depth(text)',
      'risk_readings_shape()',
      'service_writes_decision()',
      'audit_entries_shape()',
    ]);
  },
};
