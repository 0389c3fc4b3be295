import { type Migration, sql } from 'kysely';
import { pinSearchPath } from './pin-search-path';

/**
 * When something happened is the database's to say, as who did it is: a login could otherwise backdate a decision
 * (before a rule changed, into another day's figures), an audit entry, or hold a claim "since 1970" until "infinity".
 *
 * - An audit entry's `at` is the database's clock when it joins the chain (one kept on a computer while the database
 *   was away is dated when it reaches the database).
 * - A decision's `decided_at` is when the database recorded it, its `reviewed_at` when it was reviewed; a risk
 *   reading's `read_at` and a write to the service's `written_at` and `answered_at` likewise.
 * - A claim's `claimed_at` is when its holder took it; it lasts the team's lease at most, and another's live claim
 *   changes only by changing hands.
 * - A queue entry's `added_at` is never in the future and never changes afterwards (how long it has waited).
 *
 * The clock when the row is written (`clock_timestamp()`), not when its transaction or statement began: a transaction
 * held open, or a statement made slow on purpose (`select … from pg_sleep(3600)`), would otherwise date what it writes
 * an hour early. The embedded engine's one user (a superuser) keeps what it writes: it imports trails and queues of
 * earlier versions.
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

    // Decisions: when recorded, and when a proposal was reviewed (0006 dated that by the transaction's start). Each
    // table's row triggers run in the order of their names: these "_stamp" ones after 0006's, which set these times.
    await run(`
      create function decisions_stamp() returns trigger language plpgsql as $$
      begin
        if omni_superuser() then return new; end if;
        if tg_op = 'INSERT' then new.decided_at := clock_timestamp();
        elsif new.reviewed_at is not null then new.reviewed_at := clock_timestamp();
        end if;
        return new;
      end $$`);
    await run(`
      create trigger decisions_stamp before insert or update on decisions
      for each row execute function decisions_stamp()`);
    // Risk readings and writes to the service: their times too.
    await run(`
      create function risk_readings_stamp() returns trigger language plpgsql as $$
      begin
        if not omni_superuser() then new.read_at := clock_timestamp(); end if;
        return new;
      end $$`);
    await run(`
      create trigger risk_readings_stamp before insert on risk_readings
      for each row execute function risk_readings_stamp()`);
    await run(`
      create function service_writes_stamp() returns trigger language plpgsql as $$
      begin
        if omni_superuser() then return new; end if;
        if tg_op = 'INSERT' then new.written_at := clock_timestamp();
        elsif new.answered_at is not null then new.answered_at := clock_timestamp();
        end if;
        return new;
      end $$`);
    await run(`
      create trigger service_writes_stamp before insert or update on service_writes
      for each row execute function service_writes_stamp()`);

    // Claims: taken now (again when it changes hands or had lapsed), for the team's lease at most. Another's live
    // claim changes only by changing hands (0010 writes that on the trail): its lease is its holder's, or a
    // supervisor could end it unrecorded.
    await run(`
      create function claims_clock() returns trigger language plpgsql as $$
      declare
        at timestamptz := clock_timestamp();
        lease_end timestamptz := at + make_interval(mins => (select lease_minutes from team_settings));
      begin
        if omni_superuser() then return new; end if;
        if tg_op = 'UPDATE' and old.holder <> current_user and old.expires_at > at and new.holder = old.holder
           and new.expires_at is distinct from old.expires_at then
          raise exception 'the lease of a claim is its holder''s (%): release it or hand it over instead', old.holder
            using errcode = 'insufficient_privilege';
        end if;
        if tg_op = 'INSERT' or new.holder is distinct from old.holder or old.expires_at <= at then
          new.claimed_at := at;
        else
          new.claimed_at := old.claimed_at;
        end if;
        new.expires_at := least(new.expires_at, lease_end);
        return new;
      end $$`);
    await run(`
      create trigger claims_clock before insert or update on claims
      for each row execute function claims_clock()`);

    // Queue entries: never added in the future (an undone removal brings its first date back), and when one was
    // added stays as the database first took it (0006 keeps who added it likewise).
    await run(`
      create function queue_entries_clock() returns trigger language plpgsql as $$
      begin
        if omni_superuser() then return new; end if;
        if tg_op = 'INSERT' then
          new.added_at := least(new.added_at, clock_timestamp());
        else
          new.added_at := old.added_at;
        end if;
        return new;
      end $$`);
    await run(`
      create trigger queue_entries_clock before insert or update on queue_entries
      for each row execute function queue_entries_clock()`);

    await pinSearchPath(db, [
      'audit_entries_chain()',
      'decisions_stamp()',
      'risk_readings_stamp()',
      'service_writes_stamp()',
      'claims_clock()',
      'queue_entries_clock()',
    ]);
  },
};
