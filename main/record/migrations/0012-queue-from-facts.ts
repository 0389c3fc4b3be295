import { type Migration, sql } from 'kysely';
import { pinSearchPath } from './pin-search-path';

/**
 * What the team's queue shows follows the facts on file, a claim holds when the decision made under it commits, and a
 * junk checkpoint no longer keeps its stretch from being stamped. Each was a way past the rules with an analyst's own
 * password (test/main/record/row-owners.test.ts tries every one):
 *
 * - Any member updates any queue entry (0006: the queue is the team's), and a reviewer marked interviews "decided"
 *   with no decision (out of "Take next", the waiting count and the "past the target" figures, unrecorded), changed
 *   the state of one another held, filed a HIGH-risk one as low (out of the "high risk" view; four eyes reads the
 *   readings, not this column), or renamed another's entry. Now an entry is "decided" only while the interview's
 *   latest decision is open (final, proposed or confirmed), and goes back to "to review" by itself when that decision
 *   is overturned or an admin removes it; its state changes only by whoever holds it, or when nobody does; its risk is
 *   the highest any reading on file gave (a later "low" does not hide a "high", as four eyes judges); a label once
 *   given is its adder's, and at most 500 characters; a saved view is a short name and a small filter.
 * - A decision inserted in a transaction held open outlived its claim: a supervisor handed the claim over meanwhile,
 *   and the decision committed after. The claim is checked again when the decision (or a write to the service)
 *   commits: handed over or lapsed meanwhile, the decision is refused.
 * - A checkpoint had to start right after the last one written, so a reviewer's junk checkpoint took its stretch for
 *   good: the app's genuine one of it was refused. A checkpoint may now start after any earlier one (the app starts
 *   after the last one whose token holds, main/trail/checkpoints.ts).
 *
 * The embedded engine's one user (a superuser) imports what earlier versions wrote: its entries keep the risk they came
 * with until a reading is filed, and none of these rules binds it.
 */
export const queueFromFacts: Migration = {
  async up(db) {
    const run = (query: string) => sql.raw(query).execute(db);

    await run(`
      create function omni_decision_open(env text, interview text) returns boolean language sql stable as $$
        select coalesce((select status in ('final', 'proposed', 'confirmed') from decisions
          where environment = env and interview_id = interview order by id desc limit 1), false)
      $$`);

    // Refused when another holds the interview now (a claim binds, as omni_hold words it), whoever holds it otherwise.
    await run(`
      create function omni_refuse_if_held_by_other(env text, interview text) returns void language plpgsql as $$
      declare
        held record;
      begin
        select holder, claimed_at into held from claims
          where environment = env and interview_id = interview and expires_at > clock_timestamp();
        if held.holder is not null and held.holder <> current_user then
          raise exception 'interview % is held by % since %', interview, held.holder, held.claimed_at
            using errcode = 'insufficient_privilege', constraint = 'claim_held_by_other',
              detail = json_build_object('holder', held.holder, 'claimedAt', held.claimed_at, 'interviewId', interview)::text;
        end if;
      end $$`);

    await run(`
      create function queue_entries_facts() returns trigger language plpgsql as $$
      declare
        latest text;
      begin
        -- The highest level on file, in any case: high, then a level newer than the spec (counted against approving,
        -- as four eyes counts it), medium, low; the latest among equals.
        select level into latest from risk_readings
          where environment = new.environment and interview_id = new.interview_id
          order by case lower(level) when 'high' then 0 when 'medium' then 2 when 'low' then 3 else 1 end, id desc
          limit 1;
        if latest is not null then
          new.risk := latest;
        elsif not omni_superuser() then
          new.risk := case when tg_op = 'UPDATE' then old.risk end;
        end if;

        if omni_superuser() then return new; end if;
        new.label := left(new.label, 500);
        new.label_es := left(new.label_es, 500);
        if tg_op = 'UPDATE' and current_user is distinct from old.added_by then
          new.label := coalesce(old.label, new.label);
          new.label_es := coalesce(old.label_es, new.label_es);
        end if;
        if tg_op = 'UPDATE' and new.local_state is not distinct from old.local_state then return new; end if;
        if new.local_state = 'decided' and not omni_decision_open(new.environment, new.interview_id) then
          raise exception 'interview % is decided only by a decision on file: record the decision', new.interview_id
            using errcode = 'check_violation', constraint = 'queue_decided_needs_decision';
        end if;
        -- The database's own moves (a decision overturned or removed) are not the writer's: they follow the facts.
        if tg_op = 'UPDATE' and pg_trigger_depth() = 1 then
          perform omni_refuse_if_held_by_other(new.environment, new.interview_id);
        end if;
        return new;
      end $$`);
    await run(`
      create trigger queue_entries_facts before insert or update on queue_entries
      for each row execute function queue_entries_facts()`);

    // An entry another holds is not removed by whoever added it (removed and added again, its state and label went back
    // to what the adder chose); a supervisor's removal is their power, written on the trail (0010).
    await run(`
      create function queue_entries_held_removal() returns trigger language plpgsql as $$
      begin
        if not (omni_superuser() or pg_trigger_depth() > 1 or old.environment = 'demo'
                or omni_may('remove-queue-entry')) then
          perform omni_refuse_if_held_by_other(old.environment, old.interview_id);
        end if;
        return old;
      end $$`);
    await run(`
      create trigger queue_entries_held_removal before delete on queue_entries
      for each row execute function queue_entries_held_removal()`);

    // A reading filed: the queue's trigger above files the highest level on file again.
    await run(`
      create function risk_readings_to_queue() returns trigger language plpgsql as $$
      begin
        update queue_entries set risk = new.level
          where environment = new.environment and interview_id = new.interview_id;
        return null;
      end $$`);
    await run(`
      create trigger risk_readings_to_queue after insert on risk_readings
      for each row execute function risk_readings_to_queue()`);

    // The decision that made an entry "decided" overturned or removed: the interview waits to be decided again.
    await run(`
      create function decisions_to_queue() returns trigger language plpgsql as $$
      begin
        if not omni_decision_open(old.environment, old.interview_id) then
          update queue_entries set local_state = 'toReview'
            where environment = old.environment and interview_id = old.interview_id and local_state = 'decided';
        end if;
        return null;
      end $$`);
    await run(`
      create trigger decisions_to_queue after update or delete on decisions
      for each row execute function decisions_to_queue()`);

    // Entries of earlier versions marked decided with no decision on file, and risks no reading gave, are left as
    // they were: the rules hold for what is written from now on.

    // A saved view is a name and a queue's filters: small, as the app saves them, since every analyst's app reads the
    // shared ones.
    await run(`
      create function saved_views_shape() returns trigger language plpgsql as $$
      begin
        if not omni_superuser() and (length(new.name) > 60 or octet_length(new.filter::text) > 16384) then
          raise exception 'a saved view has a name of at most 60 characters and filters of at most 16 KiB'
            using errcode = 'check_violation';
        end if;
        return new;
      end $$`);
    await run(`
      create trigger saved_views_shape before insert or update on saved_views
      for each row execute function saved_views_shape()`);

    // The claim holds when the decision (or the write to the service) commits, not only when it was inserted: a
    // transaction held open had outlived its claim (handed over, or lapsed, meanwhile). Checked at commit rather than
    // by locking the claim, which let a holder who kept a transaction open stall every colleague's Take next.
    await run(`
      create function omni_held_at_commit() returns trigger language plpgsql as $$
      begin
        -- Only decisions are updated here (a review); a service write is checked when inserted.
        if tg_op = 'UPDATE' then
          if new.status is not distinct from old.status then return null; end if;
        end if;
        perform omni_hold(new.environment, new.interview_id);
        return null;
      end $$`);
    await run(`
      create constraint trigger decisions_held_at_commit after insert or update on decisions
      deferrable initially deferred for each row execute function omni_held_at_commit()`);
    await run(`
      create constraint trigger service_writes_held_at_commit after insert on service_writes
      deferrable initially deferred for each row execute function omni_held_at_commit()`);

    // 0011's checkpoint rule, starting after any earlier checkpoint (found by this index, not by reading the trail).
    await run(`
      create index audit_entries_checkpoints on audit_entries ((detail->>'seq')) where action = 'checkpoint'`);
    await run(`
      create or replace function audit_entries_shape() returns trigger language plpgsql as $$
      declare
        detail_text text := new.detail::text;
        covered bigint;
        starts bigint;
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
          starts := (new.detail->>'from')::bigint;
          -- It starts at the trail's first entry or right after one an earlier checkpoint covers: not only the last
          -- one, whose token may be junk (anyone may write one), so that its stretch can be stamped again.
          if covered < starts or covered - starts >= 1000 or covered >= new.seq
             or new.detail->>'hash' is distinct from (select hash from audit_entries where seq = covered)
             or (starts > 1 and not exists (select from audit_entries c
               where c.action = 'checkpoint' and c.detail->>'seq' = (starts - 1)::text and c.seq < new.seq)) then
            raise exception 'a checkpoint covers, by its hash, at most 1,000 entries on the trail after an earlier checkpoint'
              using errcode = 'check_violation';
          end if;
        end if;
        return new;
      end $$`);

    await pinSearchPath(db, [
      'omni_decision_open(text, text)',
      'omni_refuse_if_held_by_other(text, text)',
      'queue_entries_facts()',
      'risk_readings_to_queue()',
      'decisions_to_queue()',
      'saved_views_shape()',
      'queue_entries_held_removal()',
      'omni_held_at_commit()',
      'audit_entries_shape()',
    ]);
  },
};
