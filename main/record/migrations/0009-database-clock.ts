import { type Migration, sql } from 'kysely';
import { pinSearchPath } from './pin-search-path';

/**
 * When something happened is the database's to say, as who did it is: a login could otherwise backdate a decision
 * (before a rule changed, into another day's figures), an audit entry, or hold a claim "since 1970" until "infinity".
 *
 * - An audit entry's `at` is the database's clock when it joins the chain (one kept on a computer while the database
 *   was away is dated when it reaches the database).
 * - A decision's `decided_at` is when the database recorded it.
 * - A claim's `claimed_at` is when its holder took it; it lasts the team's lease at most.
 * - A queue entry's `added_at` is never in the future and never changes afterwards (how long it has waited).
 *
 * The time of the statement, not of its transaction (`now()`): a transaction held open for an hour would otherwise
 * date what it writes an hour early. The embedded engine's one user (a superuser) keeps what it writes: it imports
 * trails and queues of earlier versions.
 */
export const databaseClock: Migration = {
  async up(db) {
    const run = (query: string) => sql.raw(query).execute(db);

    // The chain's trigger (0006), now stamping the time before it hashes the entry.
    await run(`
      create or replace function audit_entries_chain() returns trigger language plpgsql as $$
      declare
        last record;
      begin
        -- A trail imported from this computer's files keeps its own chain: only the embedded engine's superuser.
        if omni_superuser() and new.hash is not null then return new; end if;
        perform pg_advisory_xact_lock(151151);
        if not omni_superuser() then
          -- Taken under the chain's lock, so the times never run backwards along the chain.
          new.at := to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
        end if;
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

    // Decisions: after the rules' trigger (0006) has judged the row, whatever time it was sent with.
    await run(`
      create function decisions_clock() returns trigger language plpgsql as $$
      begin
        if not omni_superuser() then new.decided_at := statement_timestamp(); end if;
        return new;
      end $$`);
    await run(`
      create trigger decisions_clock before insert on decisions
      for each row execute function decisions_clock()`);

    // Claims: taken now (again when it changes hands or had lapsed), for the team's lease at most.
    await run(`
      create function claims_clock() returns trigger language plpgsql as $$
      declare
        lease_end timestamptz := statement_timestamp() + make_interval(mins => (select lease_minutes from team_settings));
      begin
        if omni_superuser() then return new; end if;
        if tg_op = 'INSERT' or new.holder is distinct from old.holder or old.expires_at <= statement_timestamp() then
          new.claimed_at := statement_timestamp();
        else
          new.claimed_at := old.claimed_at;
        end if;
        new.expires_at := least(new.expires_at, lease_end);
        return new;
      end $$`);
    await run(`
      create trigger claims_clock before insert or update on claims
      for each row execute function claims_clock()`);

    // Queue entries: when one was added stays as the database first took it (0006 keeps who added it likewise).
    await run(`
      create function queue_entries_clock() returns trigger language plpgsql as $$
      begin
        if omni_superuser() then return new; end if;
        if tg_op = 'INSERT' then
          new.added_at := least(new.added_at, statement_timestamp());
        else
          new.added_at := old.added_at;
        end if;
        return new;
      end $$`);
    await run(`
      create trigger queue_entries_clock before insert or update on queue_entries
      for each row execute function queue_entries_clock()`);

    await pinSearchPath(db, ['audit_entries_chain()', 'decisions_clock()', 'claims_clock()', 'queue_entries_clock()']);
  },
};
