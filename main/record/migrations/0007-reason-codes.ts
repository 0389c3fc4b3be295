import { type Migration, sql } from 'kysely';

/** The codes a new team starts with, per decision kind: a supervisor relabels, adds and retires them. */
export const DEFAULT_REASON_CODES: { decision: string; code: string; en: string; es: string }[] = [
  { decision: 'approve', code: 'documents_consistent', en: 'Documents consistent', es: 'Documentos consistentes' },
  { decision: 'approve', code: 'verified_manually', en: 'Verified manually', es: 'Verificado manualmente' },
  { decision: 'reject', code: 'document_tampered', en: 'Document tampered with', es: 'Documento alterado' },
  { decision: 'reject', code: 'identity_mismatch', en: 'Identity mismatch', es: 'La identidad no coincide' },
  { decision: 'reject', code: 'sanctions_hit', en: 'Sanctions list match', es: 'Coincidencia en listas de sanciones' },
  { decision: 'reject', code: 'underage', en: 'Underage', es: 'Menor de edad' },
  { decision: 'requestNewCapture', code: 'blurry_document', en: 'Blurry document', es: 'Documento borroso' },
  { decision: 'requestNewCapture', code: 'glare', en: 'Glare on the document', es: 'Reflejo en el documento' },
  { decision: 'requestNewCapture', code: 'face_not_visible', en: 'Face not visible', es: 'Rostro no visible' },
  { decision: 'requestNewCapture', code: 'expired_document', en: 'Expired document', es: 'Documento vencido' },
];

/**
 * Reason codes: the team's list per decision kind (a supervisor's power, `set-reason-codes`), and each decision's code
 * as a column the database holds to that list. A code is never removed, only retired: the decisions that used it keep
 * it, and a retired code is refused to new ones. Earlier decisions have no code.
 */
export const reasonCodes: Migration = {
  async up(db) {
    const run = (query: string) => sql.raw(query).execute(db);
    await run(`
      create table reason_codes (
        decision text not null check (decision in ('approve', 'reject', 'requestNewCapture')),
        code text not null check (code ~ '^[a-z][a-z0-9_]{1,47}$'),
        label_en text not null check (btrim(label_en) <> '' and length(label_en) <= 80),
        label_es text not null check (btrim(label_es) <> '' and length(label_es) <= 80),
        active boolean not null default true,
        position integer not null default 0,
        primary key (decision, code)
      )`);
    for (const [position, c] of DEFAULT_REASON_CODES.entries())
      await sql`
        insert into reason_codes (decision, code, label_en, label_es, position)
        values (${c.decision}, ${c.code}, ${c.en}, ${c.es}, ${position})`.execute(db);

    // The code is one of the team's for that kind of decision (the key), and still in use when the decision is made.
    await run(`alter table decisions add column reason_code text`);
    await run(`
      alter table decisions add constraint decisions_reason_code
        foreign key (decision, reason_code) references reason_codes (decision, code)`);
    await run(`
      create function decisions_reason_code() returns trigger language plpgsql as $$
      begin
        if tg_op = 'UPDATE' then
          if new.reason_code is distinct from old.reason_code then
            raise exception 'a decision keeps the reason code it was made with'
              using errcode = 'check_violation', constraint = 'decisions_review_only';
          end if;
          return new;
        end if;
        if new.reason_code is not null and not exists (select from reason_codes r
            where r.decision = new.decision and r.code = new.reason_code and r.active) then
          raise exception 'reason code % is not one of the team''s codes for % now', new.reason_code, new.decision
            using errcode = 'foreign_key_violation', constraint = 'decisions_reason_code';
        end if;
        return new;
      end $$`);
    await run(`
      create trigger decisions_reason_code before insert or update on decisions
      for each row execute function decisions_reason_code()`);
    await run(`create index decisions_by_day_code on decisions (environment, decided_at, reason_code)`);

    // The supervisors' power, beside the others in omni_may.
    await run(`
      create or replace function omni_may(power text) returns boolean language sql stable as $$
        select case power
          when 'reassign-claim' then pg_has_role(current_user, 'omni_supervisor', 'member')
          when 'release-claim' then pg_has_role(current_user, 'omni_supervisor', 'member')
          when 'set-rules' then pg_has_role(current_user, 'omni_supervisor', 'member')
          when 'set-reason-codes' then pg_has_role(current_user, 'omni_supervisor', 'member')
          when 'remove-queue-entry' then pg_has_role(current_user, 'omni_supervisor', 'member')
          when 'remove-shared-token' then pg_has_role(current_user, 'omni_supervisor', 'member')
          when 'remove-decision' then pg_has_role(current_user, 'omni_admin', 'member')
          else false
        end
      $$`);
    await run(`alter table reason_codes enable row level security`);
    await run(`create policy reason_codes_seen on reason_codes for select using (true)`);
    await run(`create policy reason_codes_add on reason_codes for insert with check (omni_may('set-reason-codes'))`);
    await run(`
      create policy reason_codes_change on reason_codes for update
      using (omni_may('set-reason-codes')) with check (omni_may('set-reason-codes'))`);
    // As in 0006: the rules' functions never resolve a name in a session's temporary schema.
    await run(`
      do $$
      begin
        execute format('alter function omni_may(text) set search_path = pg_catalog, %I, pg_temp', current_schema());
        execute format('alter function decisions_reason_code() set search_path = pg_catalog, %I, pg_temp',
          current_schema());
      end $$`);
    // Codes are retired, never removed; a decision's code is written once (its UPDATE grant leaves it out).
    await run(`revoke all on reason_codes from public`);
    await run(`grant select on reason_codes to omni_reviewer`);
    await run(`grant insert, update (label_en, label_es, active, position) on reason_codes to omni_reviewer`);
  },
};
