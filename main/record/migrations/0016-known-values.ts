import { type Migration, sql } from 'kysely';
import { pinSearchPath } from './pin-search-path';

/**
 * Values the app knows, written in the writer's own name, for every login (red team 17):
 * - a note or name on the trail is the database's word that a write to the service was taken, in its writer's name:
 *   a reviewer filed `noted` entries "by ana" that nobody sent, and every screen and the evidence report showed them
 *   as ana's. Now written when the write is settled as sent; no client sends one, and no entry names another as `by`;
 * - a decision is one of the three kinds (a lone final "Approve" passed the rule that every approval needs a second
 *   reviewer) with its acknowledged findings a short list of text;
 * - an audit entry's action is a name and its environment an id (a 200,000-character action passed the 256 KiB bound
 *   on details); a write's idempotency key is a key;
 * - a queue entry's state is one of the three, its times finite and never in the future (`infinity` broke every
 *   analyst's queue), its session status a word, and its label its adder's, set or not;
 * - a login keeps at most 100 saved views (30,000 shared ones went to every analyst's view picker);
 * - a claim handed over goes to a login of the team (a look-alike name or nobody held the interview for the lease);
 * - a held interview's session status is its holder's to report; a checkpoint's token is on the trail once.
 * Constraints are `not valid`: rows written before stay, and the app reads them without failing.
 */
export const knownValues: Migration = {
  async up(db) {
    const run = (query: string) => sql.raw(query).execute(db);
    const check = (table: string, name: string, condition: string) =>
      run(`alter table ${table} add constraint ${table}_${name} check (${condition}) not valid`);

    await check('audit_entries', 'action_name', `action ~ '^[A-Za-z][A-Za-z0-9_.-]{0,63}$'`);
    await check('audit_entries', 'environment_id', `length(environment) <= 64`);
    await check('decisions', 'kind', `decision in ('approve', 'reject', 'requestNewCapture')`);
    await run(`
      create function omni_short_text_list(list jsonb) returns boolean language plpgsql immutable as $$
      begin
        return jsonb_typeof(list) = 'array' and jsonb_array_length(list) <= 100
          and not exists (select from jsonb_array_elements(list) item
                          where jsonb_typeof(item) <> 'string' or length(item #>> '{}') > 500);
      end $$`);
    await check('decisions', 'findings_list', `omni_short_text_list(acknowledged_findings)`);
    await check('service_writes', 'key_length', `length(idempotency_key) <= 200`);
    await check('queue_entries', 'local_state_kind', `local_state in ('toReview', 'inReview', 'decided')`);
    await check('queue_entries', 'status_word', `session_status is null or length(session_status) <= 64`);
    await check(
      'queue_entries',
      'finite_times',
      `isfinite(added_at) and (last_opened_at is null or isfinite(last_opened_at))
       and (session_status_seen_at is null or isfinite(session_status_seen_at))`,
    );

    await check('claims', 'finite_times', `isfinite(claimed_at) and isfinite(expires_at)`);

    // A note or name taken by the service, on the trail in its writer's name (the embedded engine's one user names the
    // person as the app knows them, `omni.by` set in the settling transaction, as 0013 does for decisions).
    await run(`
      create function service_writes_on_trail() returns trigger language plpgsql as $$
      declare
        by_name text := case when omni_superuser() then nullif(current_setting('omni.by', true), '') else current_user end;
      begin
        if new.state = 'sent' and old.state is distinct from 'sent' and new.kind in ('notes', 'name') then
          perform omni_trail(new.environment, new.interview_id,
            case when new.kind = 'notes' then 'noted' else 'named' end,
            json_strip_nulls(json_build_object('text', new.body, 'by', by_name)));
        end if;
        return null;
      end $$`);
    await run(`
      create trigger service_writes_on_trail after update on service_writes
      for each row execute function service_writes_on_trail()`);

    // 0013's reserved entries, notes and names added; and no entry written in another's name.
    await run(`
      create or replace function audit_entries_decisions_reserved() returns trigger language plpgsql as $$
      begin
        if omni_superuser() then return new; end if;
        if json_typeof(new.detail) = 'object' and new.detail->'by' is not null
           and new.detail->>'by' is distinct from current_user then
          raise exception 'an audit entry names its own login (%) as who did it, not %', current_user, new.detail->>'by'
            using errcode = 'insufficient_privilege';
        end if;
        if new.action not in ('proposed', 'decided', 'confirmed', 'overturned', 'noted', 'named') then
          return new;
        end if;
        if pg_trigger_depth() < 2 then
          raise exception 'a % entry is written by the database itself when the decision or the write to the service is recorded',
            new.action using errcode = 'insufficient_privilege';
        end if;
        if has_database_privilege(session_user, current_database(), 'temporary')
           or exists (select from pg_namespace n where has_schema_privilege(session_user, n.oid, 'create')) then
          raise exception '% may create objects of its own in %, so the database cannot tell its own entries from that login''s: as the owner, revoke TEMPORARY on the database and CREATE on its schemas from it',
            session_user, current_database() using errcode = 'insufficient_privilege';
        end if;
        return new;
      end $$`);

    // Times a client reports (when it last opened an entry, when it saw the session's status) are never ahead of the
    // database's clock: one set ten years ahead won every later report of the status.
    await run(`
      create function queue_entries_reported_times() returns trigger language plpgsql as $$
      begin
        if omni_superuser() then return new; end if;
        new.last_opened_at := least(new.last_opened_at, clock_timestamp());
        new.session_status_seen_at := least(new.session_status_seen_at, clock_timestamp());
        -- A held interview's session status is its holder's to report (another's "Closed" stopped the holder's notes):
        -- another's sighting is not kept, nor refused, since every app that reads the interview reports it.
        if tg_op = 'UPDATE' and pg_trigger_depth() = 1 and exists (
             select from claims where environment = new.environment and interview_id = new.interview_id
               and expires_at > now() and holder <> current_user) then
          new.session_status := old.session_status;
          new.session_status_seen_at := old.session_status_seen_at;
        end if;
        -- The label is its adder's, set or not (0012 let anyone fill one nobody had set).
        if tg_op = 'UPDATE' and current_user is distinct from old.added_by then
          new.label := old.label;
          new.label_es := old.label_es;
        end if;
        return new;
      end $$`);
    // Named to run after 0012's queue_entries_facts (triggers of one event run by name).
    await run(`
      create trigger queue_entries_reported_times before insert or update on queue_entries
      for each row execute function queue_entries_reported_times()`);

    // Counted under a lock of the login's own, so that views saved in transactions side by side are counted together
    // (red team 18: twelve transactions of 100 each all committed).
    await run(`
      create function saved_views_count() returns trigger language plpgsql as $$
      begin
        if omni_superuser() then return new; end if;
        perform pg_advisory_xact_lock(hashtext('omni saved views ' || current_user));
        if (select count(*) from saved_views where owner = current_user) >= 100 then
          raise exception 'a login keeps at most 100 saved views' using errcode = 'check_violation',
            constraint = 'saved_views_count';
        end if;
        return new;
      end $$`);
    await run(`
      create trigger saved_views_count before insert on saved_views
      for each row execute function saved_views_count()`);

    // A claim is held by a member of the team who can log in: a supervisor's hand-over names one.
    await run(`
      create function claims_holder_member() returns trigger language plpgsql as $$
      begin
        if omni_superuser() or new.holder = current_user then return new; end if;
        -- Two steps: pg_has_role fails on a name that is no role.
        if exists (select from pg_roles where rolname = new.holder and rolcanlogin and not rolsuper) then
          if pg_has_role(new.holder, 'omni_reviewer', 'member') then return new; end if;
        end if;
        raise exception '% is not a login of the team: a claim is handed over to a member', new.holder
          using errcode = 'check_violation', constraint = 'claims_holder_member';
      end $$`);
    await run(`
      create trigger claims_holder_member before insert or update on claims
      for each row execute function claims_holder_member()`);

    // A checkpoint's token once: a replayed one (a copy of an old checkpoint at the head) added nothing and moved
    // every app's next checkpoint back to its stretch, re-stamping the trail since (red team 18). Checked after the
    // chain's trigger, under its lock.
    // The token as its bytes read, whatever its text's armour, line breaks, padding or base64 alphabet.
    await run(`
      create function omni_token_key(token text) returns text language sql immutable as $$
        select md5(translate(regexp_replace(regexp_replace(token, '-----[^-]*-----', '', 'g'), '[\\s=]', '', 'g'),
          '-_', '+/'))
      $$`);
    await run(`create index audit_entries_checkpoint_tokens on audit_entries (omni_token_key(detail->>'token'))
      where action = 'checkpoint'`);
    await run(`
      create function audit_entries_token_once() returns trigger language plpgsql as $$
      begin
        if new.action = 'checkpoint' and exists (
             select from audit_entries where action = 'checkpoint'
               and omni_token_key(detail->>'token') = omni_token_key(new.detail->>'token')) then
          raise exception 'this checkpoint''s token is on the trail already' using errcode = 'unique_violation',
            constraint = 'audit_entries_token_once';
        end if;
        return new;
      end $$`);
    await run(`
      create trigger audit_entries_token_once before insert on audit_entries
      for each row execute function audit_entries_token_once()`);

    await pinSearchPath(db, [
      'omni_short_text_list(jsonb)',
      'service_writes_on_trail()',
      'audit_entries_decisions_reserved()',
      'queue_entries_reported_times()',
      'saved_views_count()',
      'claims_holder_member()',
      'audit_entries_token_once()',
      'omni_token_key(text)',
    ]);
  },
};
