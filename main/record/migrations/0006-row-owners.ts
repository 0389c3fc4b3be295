import { type Migration, sql } from 'kysely';

/**
 * Every row has an owner the database sets (`current_user`), and only its owner, or a power `omni_may` lists, writes
 * it. On a team database the database is the judge: a modified client is just psql with the analyst's own password.
 *
 * - Supervisors' and admins' powers are listed in one function, `omni_may`, which every policy and trigger asks.
 * - A claim binds: only the live holder decides an interview or writes to the service about it (`omni_hold`).
 * - An interview has at most one open decision: none while a proposal waits, no second final one.
 * - Four eyes from facts: risk readings are append-only and attributed; the rule is judged on every reading on file.
 * - The audit trail's sequence, previous hash and hash are the database's to compute (hash version 2).
 * - Every note, name or decision note goes to the service only after its write is recorded here (`service_writes`).
 *
 * The embedded engine's one user is a superuser: it holds every role and is bound by none of the team's rules.
 */
export const rowOwners: Migration = {
  async up(db) {
    const run = (query: string) => sql.raw(query).execute(db);

    // The powers beyond a reviewer's own rows, in one place.
    await run(`
      create function omni_may(power text) returns boolean language sql stable as $$
        select case power
          when 'reassign-claim' then pg_has_role(current_user, 'omni_supervisor', 'member')
          when 'release-claim' then pg_has_role(current_user, 'omni_supervisor', 'member')
          when 'set-rules' then pg_has_role(current_user, 'omni_supervisor', 'member')
          when 'remove-queue-entry' then pg_has_role(current_user, 'omni_supervisor', 'member')
          when 'remove-shared-token' then pg_has_role(current_user, 'omni_supervisor', 'member')
          when 'remove-decision' then pg_has_role(current_user, 'omni_admin', 'member')
          else false
        end
      $$`);
    await run(`
      create function omni_superuser() returns boolean language sql stable as $$
        select coalesce((select rolsuper from pg_roles where rolname = current_user), false)
      $$`);

    // Claims: the holder's own, or a supervisor's power (hand over, release).
    await run(`drop policy claims_take on claims`);
    await run(`drop policy claims_keep on claims`);
    await run(`drop policy claims_release on claims`);
    await run(`
      create policy claims_take on claims for insert
      with check (holder = current_user or omni_may('reassign-claim'))`);
    await run(`
      create policy claims_keep on claims for update
      using (holder = current_user or expires_at <= now() or omni_may('reassign-claim'))
      with check (holder = current_user or omni_may('reassign-claim'))`);
    await run(`
      create policy claims_release on claims for delete
      using (holder = current_user or expires_at <= now() or omni_may('release-claim'))`);

    // The live holder alone works an interview: refused, naming who holds it since when, or that nobody does.
    await run(`
      create function omni_hold(env text, interview text) returns void language plpgsql as $$
      declare
        held record;
      begin
        if omni_superuser() then return; end if;
        select holder, claimed_at into held from claims
          where environment = env and interview_id = interview and expires_at > now();
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

    // Risk readings: who read what, when; nobody changes or removes one.
    await run(`
      create table risk_readings (
        id bigint primary key generated always as identity,
        environment text not null,
        interview_id text not null,
        level text not null,
        high_findings jsonb not null default '[]' check (jsonb_typeof(high_findings) = 'array'),
        read_by text not null default current_user,
        read_at timestamptz not null default now()
      )`);
    await run(`create index risk_readings_by_interview on risk_readings (environment, interview_id)`);
    await run(`
      create function risk_readings_own() returns trigger language plpgsql as $$
      begin
        if tg_op <> 'INSERT' then
          raise exception 'risk readings are kept: % is refused', tg_op using errcode = 'insufficient_privilege';
        end if;
        if new.read_by is distinct from current_user then
          raise exception 'a risk reading is recorded as made by its own login (%), not by %', current_user, new.read_by
            using errcode = 'insufficient_privilege';
        end if;
        new.read_at := now();
        return new;
      end $$`);
    await run(`
      create trigger risk_readings_own before insert or update or delete on risk_readings
      for each row execute function risk_readings_own()`);
    await run(`
      create trigger risk_readings_no_truncate before truncate on risk_readings
      for each statement execute function audit_entries_append_only()`);

    // Decisions: bound to the claim, one open at a time, four eyes judged on the readings on file.
    await run(`
      create or replace function decisions_four_eyes() returns trigger language plpgsql as $$
      declare
        rule text;
        previous text;
        lone boolean := not omni_superuser();
      begin
        if tg_op = 'DELETE' then
          -- Only the demo data is reset by an analyst; real decisions stay, unless an admin removes them.
          if old.environment <> 'demo' and not omni_may('remove-decision') then
            raise exception 'decisions are kept: only an admin removes them' using errcode = 'insufficient_privilege';
          end if;
          return old;
        end if;
        if tg_op = 'INSERT' then
          if new.decided_by is distinct from current_user then
            raise exception 'a decision is recorded as made by its own login (%), not by %', current_user, new.decided_by
              using errcode = 'insufficient_privilege', constraint = 'decisions_decided_by';
          end if;
          if new.status not in ('final', 'proposed')
             or num_nonnulls(new.reviewed_by, new.review_reason, new.reviewed_at) > 0 then
            raise exception 'a decision starts final or proposed, and is reviewed afterwards'
              using errcode = 'check_violation', constraint = 'decisions_review_only';
          end if;
          perform omni_hold(new.environment, new.interview_id);
          -- One open decision an interview: two deciding at once are taken one after the other.
          perform pg_advisory_xact_lock(hashtext(new.environment), hashtext(new.interview_id));
          select status into previous from decisions
            where environment = new.environment and interview_id = new.interview_id order by id desc limit 1;
          if previous = 'proposed' then
            raise exception 'interview % has a proposal waiting for a second review: it is confirmed or overturned first',
              new.interview_id using errcode = 'check_violation', constraint = 'decisions_proposal_waiting';
          end if;
          if lone and previous in ('final', 'confirmed') then
            raise exception 'interview % is decided already: only an admin removes a decision', new.interview_id
              using errcode = 'check_violation', constraint = 'decisions_already_decided';
          end if;
          -- The team's rule, on the readings on file (anyone's, never removed) as well as what the decider wrote.
          -- An approval of an interview nobody has read the checks of cannot be judged low risk.
          if lone and new.status = 'final' and new.decision = 'approve' then
            select four_eyes into rule from team_settings;
            if rule = 'all-approvals'
               or (rule = 'high-risk-approvals' and (
                 jsonb_array_length(new.acknowledged_findings) > 0
                 or not exists (select from risk_readings r
                   where r.environment = new.environment and r.interview_id = new.interview_id)
                 or exists (select from risk_readings r
                   where r.environment = new.environment and r.interview_id = new.interview_id
                     and (r.level = 'high' or jsonb_array_length(r.high_findings) > 0)))) then
              raise exception 'four eyes: this approval needs a second reviewer, so it is recorded as proposed'
                using errcode = 'check_violation', constraint = 'decisions_needs_second_reviewer';
            end if;
          end if;
          return new;
        end if;
        -- UPDATE: a proposal confirmed or overturned by its claim's holder, and nothing else changed.
        if old.status <> 'proposed' or new.status not in ('confirmed', 'overturned')
           or (new.id, new.environment, new.interview_id, new.decision, new.reason, new.acknowledged_findings,
               new.decided_at, new.decided_by)
              is distinct from (old.id, old.environment, old.interview_id, old.decision, old.reason,
               old.acknowledged_findings, old.decided_at, old.decided_by) then
          raise exception 'only a proposed decision changes, and only to confirmed or overturned'
            using errcode = 'check_violation', constraint = 'decisions_review_only';
        end if;
        if new.reviewed_by is distinct from current_user then
          raise exception 'a review is recorded as made by its own login (%), not by %', current_user, new.reviewed_by
            using errcode = 'insufficient_privilege', constraint = 'decisions_reviewed_by';
        end if;
        if new.reviewed_by = old.decided_by then
          raise exception 'four eyes: % proposed this decision and cannot confirm or overturn it', current_user
            using errcode = 'insufficient_privilege', constraint = 'decisions_four_eyes';
        end if;
        if coalesce(btrim(new.review_reason), '') = '' then
          raise exception 'a review needs a reason' using errcode = 'check_violation', constraint = 'decisions_review_only';
        end if;
        perform omni_hold(new.environment, new.interview_id);
        new.reviewed_at := now();
        return new;
      end $$`);

    // What goes to the service (a note, a name, a decision's note): recorded first, so the database allows it or
    // refuses it before anything leaves; then settled with what the service answered, by whoever wrote it.
    await run(`
      create table service_writes (
        id bigint primary key generated always as identity,
        environment text not null,
        interview_id text not null,
        kind text not null check (kind in ('notes', 'name', 'decision')),
        body text not null,
        idempotency_key text not null unique,
        decision_id integer references decisions (id) on delete cascade,
        written_by text not null default current_user,
        written_at timestamptz not null default now(),
        state text not null default 'pending' check (state in ('pending', 'sent', 'refused')),
        answered_at timestamptz,
        answer jsonb
      )`);
    await run(`create index service_writes_by_interview on service_writes (environment, interview_id, kind, id)`);
    await run(`
      create function service_writes_own() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          if new.written_by is distinct from current_user then
            raise exception 'a write to the service is recorded as made by its own login (%), not by %',
              current_user, new.written_by using errcode = 'insufficient_privilege';
          end if;
          if new.state <> 'pending' or num_nonnulls(new.answered_at, new.answer) > 0 then
            raise exception 'a write to the service starts pending' using errcode = 'check_violation';
          end if;
          perform omni_hold(new.environment, new.interview_id);
          new.written_at := now();
          return new;
        end if;
        if (new.id, new.environment, new.interview_id, new.kind, new.body, new.idempotency_key, new.decision_id,
            new.written_by, new.written_at)
           is distinct from (old.id, old.environment, old.interview_id, old.kind, old.body, old.idempotency_key,
            old.decision_id, old.written_by, old.written_at) then
          raise exception 'a write to the service changes only its state and answer' using errcode = 'check_violation';
        end if;
        if old.state = 'sent' then
          raise exception 'a write the service took stays taken' using errcode = 'check_violation';
        end if;
        new.answered_at := case when new.state = 'pending' then null else now() end;
        return new;
      end $$`);
    await run(`
      create trigger service_writes_own before insert or update on service_writes
      for each row execute function service_writes_own()`);
    await run(`alter table service_writes enable row level security`);
    await run(`create policy service_writes_seen on service_writes for select using (true)`);
    await run(`create policy service_writes_add on service_writes for insert with check (written_by = current_user)`);
    await run(`
      create policy service_writes_settle on service_writes for update
      using (written_by = current_user) with check (written_by = current_user)`);

    // Drafts are their writer's. Drafts of earlier versions have no known writer ('') and are read by every member
    // until their writer's own draft replaces them.
    await run(`alter table drafts add column owner text not null default ''`);
    await run(`alter table drafts alter column owner set default current_user`);
    await run(`alter table drafts drop constraint drafts_pk`);
    await run(`alter table drafts add constraint drafts_pk primary key (environment, interview_id, kind, owner)`);
    await run(`alter table drafts enable row level security`);
    await run(`create policy drafts_seen on drafts for select using (owner = current_user or owner = '')`);
    await run(`create policy drafts_own_insert on drafts for insert with check (owner = current_user)`);
    await run(`
      create policy drafts_own_update on drafts for update
      using (owner = current_user) with check (owner = current_user)`);
    await run(`create policy drafts_own_delete on drafts for delete using (owner = current_user or owner = '')`);

    // The queue is the team's: anyone adds and updates what it shows; an entry is removed by whoever added it, a
    // supervisor, or anyone for the demo's.
    await run(`alter table queue_entries add column added_by text`);
    await run(`alter table queue_entries alter column added_by set default current_user`);
    await run(`alter table queue_entries enable row level security`);
    await run(`create policy queue_entries_seen on queue_entries for select using (true)`);
    await run(`create policy queue_entries_add on queue_entries for insert with check (added_by = current_user)`);
    await run(`create policy queue_entries_update on queue_entries for update using (true) with check (true)`);
    await run(`
      create function queue_entries_added_by() returns trigger language plpgsql as $$
      begin
        new.added_by := old.added_by;
        return new;
      end $$`);
    await run(`
      create trigger queue_entries_added_by before update on queue_entries
      for each row execute function queue_entries_added_by()`);
    await run(`
      create policy queue_entries_remove on queue_entries for delete
      using (added_by = current_user or environment = 'demo' or omni_may('remove-queue-entry'))`);

    // A sealed token is replaced or removed by whoever sealed it (or a supervisor removes it).
    await run(`alter table shared_session_tokens enable row level security`);
    await run(`create policy shared_tokens_seen on shared_session_tokens for select using (true)`);
    await run(`
      create policy shared_tokens_add on shared_session_tokens for insert with check (sealed_by = current_user)`);
    await run(`
      create policy shared_tokens_replace on shared_session_tokens for update
      using (sealed_by = current_user) with check (sealed_by = current_user)`);
    await run(`
      create policy shared_tokens_remove on shared_session_tokens for delete
      using (sealed_by = current_user or omni_may('remove-shared-token'))`);

    // The audit trail's chain is the database's: sequence, previous hash and hash computed here under one lock,
    // whatever a client sends. Version 2 hashes the fields as the database keeps them (audit-chain.ts reads the
    // same text back); version 1 entries (earlier versions, imported trails) keep their hashes.
    await run(`alter table audit_entries add column hash_version smallint not null default 1`);
    await run(`
      create function audit_entries_chain() returns trigger language plpgsql as $$
      declare
        last record;
      begin
        -- A trail imported from this computer's files keeps its own chain: only the embedded engine's superuser.
        if omni_superuser() and new.hash is not null then return new; end if;
        perform pg_advisory_xact_lock(151151);
        select seq, hash into last from audit_entries order by seq desc limit 1;
        new.seq := coalesce(last.seq, 0) + 1;
        new.prev_hash := coalesce(last.hash, repeat('0', 64));
        new.actor := current_user;
        new.hash_version := 2;
        new.hash := encode(sha256(convert_to(concat_ws(E'\\n',
          'omni-audit-v2', new.prev_hash, new.seq::text, to_json(new.at)::text, to_json(new.environment)::text,
          coalesce(to_json(new.interview_id)::text, 'null'), to_json(new.action)::text, to_json(new.actor)::text,
          new.detail::text), 'UTF8')), 'hex');
        return new;
      end $$`);
    await run(`
      create trigger audit_entries_chain before insert on audit_entries
      for each row execute function audit_entries_chain()`);
    await run(`revoke insert on audit_entries from omni_reviewer`);
    await run(`grant insert (at, environment, interview_id, action, detail) on audit_entries to omni_reviewer`);

    // Every function the rules run resolves names in the catalog and the record's own schema, never in a session's
    // temporary schema: a login may create temporary tables, and one named pg_roles or claims would otherwise stand in
    // for the real one inside these functions (a "superuser" row, a claim of one's own).
    await run(`
      do $$
      declare
        fn text;
      begin
        foreach fn in array array[
          'omni_may(text)', 'omni_superuser()', 'omni_hold(text, text)', 'risk_readings_own()',
          'decisions_four_eyes()', 'service_writes_own()', 'queue_entries_added_by()', 'audit_entries_chain()',
          'audit_entries_actor()', 'audit_entries_append_only()', 'record_notify()'
        ] loop
          execute format('alter function %s set search_path = pg_catalog, %I, pg_temp', fn, current_schema());
        end loop;
      end $$`);

    // Grants of what is new; queue entries' writer is the database's to say.
    await run(`revoke all on risk_readings, service_writes from public`);
    await run(`grant select, insert on risk_readings to omni_reviewer`);
    await run(`grant select, insert on service_writes to omni_reviewer`);
    await run(`grant update (state, answer) on service_writes to omni_reviewer`);
  },
};
