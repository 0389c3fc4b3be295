import { type Migration, sql } from 'kysely';

/**
 * Team review in the database itself: each analyst connects with their own login, so claims, decisions and audit
 * entries are attributed by `current_user`, and the roles' grants, row-level security and triggers hold whatever a
 * client sends, even a modified one. On the embedded engine the one user (`postgres`, a superuser) holds every role.
 *
 * Roles: omni_reviewer; omni_supervisor (a reviewer too); omni_admin (a supervisor too). They are cluster-wide: the
 * admin SQL (docs/team-database.sql) makes them before the first start; here they are made only where missing.
 */
export const teamReview: Migration = {
  async up(db) {
    await sql`
      do $$
      begin
        if not exists (select from pg_roles where rolname = 'omni_reviewer') then
          create role omni_reviewer nologin;
        end if;
        if not exists (select from pg_roles where rolname = 'omni_supervisor') then
          create role omni_supervisor nologin in role omni_reviewer;
        end if;
        if not exists (select from pg_roles where rolname = 'omni_admin') then
          create role omni_admin nologin in role omni_supervisor;
        end if;
      exception when insufficient_privilege then
        raise exception 'the roles omni_reviewer, omni_supervisor and omni_admin are missing and % may not make them: an administrator runs docs/team-database.sql first', current_user
          using errcode = 'insufficient_privilege';
      end $$`.execute(db);

    // The team's rules: one row, changed by supervisors only.
    await sql`
      create table team_settings (
        id boolean primary key default true check (id),
        four_eyes text not null default 'high-risk-approvals'
          check (four_eyes in ('high-risk-approvals', 'all-approvals', 'none')),
        target_hours integer not null default 24 check (target_hours between 1 and 720),
        lease_minutes integer not null default 15 check (lease_minutes between 1 and 1440)
      )`.execute(db);
    await sql`insert into team_settings default values`.execute(db);

    // Who holds which interview, until when. No foreign key to the queue: removing an entry must not wait on a claim.
    await sql`
      create table claims (
        environment text not null,
        interview_id text not null,
        holder text not null default current_user,
        claimed_at timestamptz not null default now(),
        expires_at timestamptz not null,
        primary key (environment, interview_id)
      )`.execute(db);
    // No other index: with one on the environment alone, a planner without statistics yet (a young table) checked
    // each queue row against every claim of the environment instead of looking it up by this key.
    await sql`alter table claims enable row level security`.execute(db);
    await sql`create policy claims_seen on claims for select using (true)`.execute(db);
    // A reviewer takes, renews and releases their own claims, and may take one that lapsed; a supervisor any.
    await sql`
      create policy claims_take on claims for insert
      with check (holder = current_user or pg_has_role(current_user, 'omni_supervisor', 'member'))`.execute(db);
    await sql`
      create policy claims_keep on claims for update
      using (holder = current_user or expires_at <= now() or pg_has_role(current_user, 'omni_supervisor', 'member'))
      with check (holder = current_user or pg_has_role(current_user, 'omni_supervisor', 'member'))`.execute(db);
    await sql`
      create policy claims_release on claims for delete
      using (holder = current_user or expires_at <= now() or pg_has_role(current_user, 'omni_supervisor', 'member'))`.execute(
      db,
    );

    // Decisions: who made them, and the second review of a proposal. Earlier rows were final and made by someone
    // the database never knew: their decided_by stays empty (a default on ADD COLUMN would name the migrating login).
    await sql`
      alter table decisions
        add column status text not null default 'final'
          check (status in ('final', 'proposed', 'confirmed', 'overturned')),
        add column decided_by text,
        add column reviewed_by text,
        add column review_reason text,
        add column reviewed_at timestamptz`.execute(db);
    await sql`alter table decisions alter column decided_by set default current_user`.execute(db);
    await sql`create index decisions_proposed on decisions (environment, id) where status = 'proposed'`.execute(db);
    await sql`
      create function decisions_four_eyes() returns trigger language plpgsql as $$
      declare
        rule text;
      begin
        if tg_op = 'DELETE' then
          -- Only the demo data is reset by an analyst; real decisions stay, unless an admin removes them.
          if old.environment <> 'demo' and not pg_has_role(current_user, 'omni_admin', 'member') then
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
          -- The team's rule, on what the client recorded it acknowledged. The embedded engine's one user (a superuser)
          -- has nobody to confirm with; neither has a team's administrator working outside the roles.
          if new.status = 'final' and new.decision = 'approve'
             and not (select rolsuper from pg_roles where rolname = current_user) then
            select four_eyes into rule from team_settings;
            if rule = 'all-approvals'
               or (rule = 'high-risk-approvals' and jsonb_array_length(new.acknowledged_findings) > 0) then
              raise exception 'four eyes: this approval needs a second reviewer, so it is recorded as proposed'
                using errcode = 'check_violation', constraint = 'decisions_needs_second_reviewer';
            end if;
          end if;
          return new;
        end if;
        -- UPDATE: a proposal confirmed or overturned, and nothing else changed.
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
        new.reviewed_at := now();
        return new;
      end $$`.execute(db);
    await sql`
      create trigger decisions_four_eyes before insert or update or delete on decisions
      for each row execute function decisions_four_eyes()`.execute(db);

    // The audit trail says who wrote each entry. Entries of earlier versions (and imported ones) have no actor;
    // only an admin writes such entries (the import), so a reviewer cannot leave theirs unattributed.
    await sql`alter table audit_entries add column actor text`.execute(db);
    await sql`alter table audit_entries alter column actor set default current_user`.execute(db);
    await sql`
      create function audit_entries_actor() returns trigger language plpgsql as $$
      begin
        if new.actor is distinct from current_user
           and not (new.actor is null and pg_has_role(current_user, 'omni_admin', 'member')) then
          raise exception 'an audit entry is recorded as written by its own login (%), not by %', current_user, new.actor
            using errcode = 'insufficient_privilege';
        end if;
        return new;
      end $$`.execute(db);
    await sql`
      create trigger audit_entries_actor before insert on audit_entries
      for each row execute function audit_entries_actor()`.execute(db);

    // Filters an analyst keeps; shared ones are seen by the whole team, changed by their owner only.
    await sql`
      create table saved_views (
        id integer primary key generated always as identity,
        owner text not null default current_user,
        name text not null,
        filter jsonb not null,
        shared boolean not null default false,
        unique (owner, name)
      )`.execute(db);
    await sql`alter table saved_views enable row level security`.execute(db);
    await sql`create policy saved_views_seen on saved_views for select using (owner = current_user or shared)`.execute(
      db,
    );
    await sql`create policy saved_views_own_insert on saved_views for insert with check (owner = current_user)`.execute(
      db,
    );
    await sql`
      create policy saved_views_own_update on saved_views for update
      using (owner = current_user) with check (owner = current_user)`.execute(db);
    await sql`create policy saved_views_own_delete on saved_views for delete using (owner = current_user)`.execute(db);

    // Every analyst's app hears a claim, a decision or a queue change within a moment (LISTEN omni_record).
    await sql`
      create function record_notify() returns trigger language plpgsql as $$
      declare
        r record;
        kind text;
      begin
        if tg_op = 'DELETE' then r := old; else r := new; end if;
        if tg_table_name = 'claims' then
          if tg_op = 'DELETE' then kind := 'released';
          elsif tg_op = 'UPDATE' and new.holder = old.holder and old.expires_at > now() then kind := 'renewed';
          else kind := 'claimed';
          end if;
        elsif tg_table_name = 'decisions' and tg_op <> 'DELETE' then
          kind := new.status;
        else
          kind := case tg_op when 'INSERT' then 'added' when 'UPDATE' then 'changed' else 'removed' end;
        end if;
        perform pg_notify('omni_record', json_build_object(
          'table', tg_table_name, 'environment', r.environment, 'interviewId', r.interview_id,
          'kind', kind, 'by', current_user)::text);
        return null;
      end $$`.execute(db);
    for (const table of ['claims', 'decisions', 'queue_entries'])
      await sql`
        create trigger ${sql.raw(`${table}_notify`)} after insert or update or delete on ${sql.table(table)}
        for each row execute function record_notify()`.execute(db);

    // Grants, table by table; nothing through PUBLIC. Databases set up with part 1's SQL granted everything to
    // omni_reviewers by default: that is taken back, its members work through omni_reviewer now.
    const tables = [
      'queue_entries',
      'drafts',
      'decisions',
      'audit_entries',
      'record_meta',
      'claims',
      'team_settings',
      'saved_views',
    ];
    for (const table of tables) await sql`revoke all on ${sql.table(table)} from public`.execute(db);
    await sql`
      do $$
      begin
        if exists (select from pg_roles where rolname = 'omni_reviewers') then
          revoke all on all tables in schema public from omni_reviewers;
          alter default privileges in schema public revoke all on tables from omni_reviewers;
          alter default privileges in schema public revoke all on sequences from omni_reviewers;
        end if;
      end $$`.execute(db);
    const grants = [
      'grant select, insert, update, delete on queue_entries, drafts, claims, saved_views to omni_reviewer',
      // Reviewers review a proposal (the trigger says how); nothing else of a decision changes.
      'grant select, insert, delete on decisions to omni_reviewer',
      'grant update (status, reviewed_by, review_reason) on decisions to omni_reviewer',
      'grant select, insert on audit_entries to omni_reviewer',
      'grant select on record_meta, team_settings to omni_reviewer',
      'grant update (four_eyes, target_hours, lease_minutes) on team_settings to omni_supervisor',
      // Each start checks the schema's version (the migrator reads these); only the owner changes it.
      'grant select on kysely_migration, kysely_migration_lock to omni_reviewer',
    ];
    for (const grant of grants) await sql.raw(grant).execute(db);
  },
};
