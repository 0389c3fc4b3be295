import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryVault } from '../../../main/auth/memory-vault';
import type { StoredEntry } from '../../../main/record/queue-records';
import { recordAuditTrail } from '../../../main/record/audit-records';
import { reviewRecord } from '../../../main/record/index';
import { openRecord, type OpenRecord } from '../../../main/record/open';
import type { MainContext } from '../../../main/ports';
import { QueueBulk } from '../../../main/review/bulk';
import { ReviewQueue } from '../../../main/review/queue';
import { TeamDesk } from '../../../main/review/team-desk';
import { ENGINES, engineFactory } from '../../helpers/record-engines';

/**
 * The queue's bulk actions on both engines, each row through the single action's code; on a team database, a
 * reviewer's rows the database keeps from them come back refused with the reason, and a supervisor's go through.
 */

/** Not the demo environment: on a team database anyone may remove the demo's entries. */
const ENV = 'acme-prod';

interface Saved {
  suggestedName: string;
  text: string;
}

function appOn(open: OpenRecord, save: (file: Saved) => boolean = () => true) {
  const files: Saved[] = [];
  const record = reviewRecord(open);
  const audit = recordAuditTrail(open.db, () => ENV);
  const ctx = {
    record,
    environments: { active: () => ({ id: ENV }) },
    audit,
    files: {
      save: async ({ suggestedName, data }: { suggestedName: string; data: Uint8Array }) => {
        const file = { suggestedName, text: new TextDecoder().decode(data) };
        if (!save(file)) return null;
        files.push(file);
        return { savedTo: `/tmp/${suggestedName}` };
      },
    },
  } as unknown as MainContext;
  const queue = new ReviewQueue(
    record.queue,
    new MemoryVault(),
    () => ENV,
    (env, ids) => audit.lastRecorded('opened', env, ids),
  );
  const desk = new TeamDesk(ctx);
  return { bulk: new QueueBulk(ctx, queue, desk), desk, record, audit, files };
}

const entry = (interviewId: string, minutesAgo: number, extra: Partial<StoredEntry> = {}): StoredEntry => ({
  interviewId,
  addedAt: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
  localState: 'toReview',
  ...extra,
});

const actionsOn = async (app: ReturnType<typeof appOn>, action: string) =>
  (await app.audit.list()).filter((e) => e.action === action).map((e) => e.interviewId);

for (const kind of ENGINES)
  describe(`bulk actions on the ${kind} engine`, () => {
    const engines = engineFactory(kind);
    let app: ReturnType<typeof appOn>;
    let refuseSave = false;

    beforeAll(async () => {
      app = appOn(await engines.open(), () => !refuseSave);
      await app.record.queue.put(ENV, [
        entry('bulk-a', 50, { label: '=HYPERLINK("http://evil.example","click")', labelEs: 'Cliente «A», S.A.' }),
        entry('bulk-b', 40, { sessionStatus: 'Alive', risk: 'high' }),
        entry('bulk-c', 30, { localState: 'decided', risk: 'low' }),
        entry('bulk-d', 20),
        entry('bulk-e', 10),
      ]);
    }, 60_000);
    afterAll(() => engines.dispose());

    it("lists a view's ids in its order, for select all", async () => {
      const query = {
        filter: { state: 'toReview', status: 'all' },
        sort: 'added',
        search: 'bulk',
      } as const;
      expect(await app.bulk.viewIds(query, 10)).toEqual({
        ids: ['bulk-a', 'bulk-b', 'bulk-d', 'bulk-e'],
        more: false,
      });
      expect(await app.bulk.viewIds(query, 2)).toEqual({ ids: ['bulk-a', 'bulk-b'], more: true });
    });

    it('releases each claim held, audits each, and lists one nobody held with the reason', async () => {
      for (const id of ['bulk-a', 'bulk-b', 'bulk-c']) await app.desk.claim(id);
      const result = await app.bulk.release(['bulk-a', 'bulk-b', 'bulk-c', 'bulk-d']);
      expect(result.done).toEqual(['bulk-a', 'bulk-b', 'bulk-c']);
      expect(result.refused).toEqual([
        expect.objectContaining({
          interviewId: 'bulk-d',
          code: 'NOT_RELEASED',
          message: expect.objectContaining({ es: expect.stringContaining('Nadie la tenía') }),
        }),
      ]);
      expect(await app.record.claims.holders(ENV)).toEqual([]);
      expect(await actionsOn(app, 'released')).toEqual(['bulk-a', 'bulk-b', 'bulk-c']);
    });

    it('exports the rows as a CSV in Spanish, formulas neutralised, each export in its interview’s trail', async () => {
      const result = await app.bulk.exportCsv(['bulk-a', 'bulk-b', 'bulk-c', 'not-queued'], 'es');
      expect(result).toMatchObject({ saved: true, done: ['bulk-a', 'bulk-b', 'bulk-c'] });
      expect(result.refused).toEqual([expect.objectContaining({ interviewId: 'not-queued', code: 'NOT_IN_QUEUE' })]);
      const file = app.files.at(-1)!;
      expect(file.suggestedName).toMatch(/^bandeja-.*\.csv$/);
      const lines = file.text
        .replace(/^\ufeff/, '')
        .trimEnd()
        .split('\r\n');
      expect(lines[0]).toBe(
        'ID de entrevista,Etiqueta,Estado de la sesión,Riesgo,Estado de revisión,Espera segunda revisión,La tiene,' +
          'Agregada el (UTC),Última apertura (UTC),Token de sesión',
      );
      expect(lines).toHaveLength(4);
      // The Spanish label is used where there is one; a comma inside is quoted.
      expect(lines[1]).toMatch(/^bulk-a,"Cliente «A», S\.A\.",,,Por revisar,No,,[0-9T:.Z-]+,,No$/);
      expect(lines[2]).toMatch(/^bulk-b,,Activa,Alto,Por revisar,No,,/);
      expect(lines[3]).toMatch(/^bulk-c,,,Bajo,Decidida,No,,/);

      const english = await app.bulk.exportCsv(['bulk-a'], 'en');
      expect(english.saved).toBe(true);
      const en = app.files
        .at(-1)!
        .text.replace(/^\ufeff/, '')
        .trimEnd()
        .split('\r\n');
      expect(en[0]).toMatch(/^Interview ID,Label,Session status,Risk,Review state,/);
      // A label that a spreadsheet would run as a formula is written as text.
      expect(en[1]).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`);

      const downloads = (await app.audit.list()).filter((e) => e.action === 'downloaded');
      expect(downloads.map((e) => [e.interviewId, e.detail])).toEqual([
        ['bulk-a', { what: 'queueCsv', rows: 3 }],
        ['bulk-b', { what: 'queueCsv', rows: 3 }],
        ['bulk-c', { what: 'queueCsv', rows: 3 }],
        ['bulk-a', { what: 'queueCsv', rows: 1 }],
      ]);
    });

    it('records nothing when the save is cancelled', async () => {
      refuseSave = true;
      try {
        const before = (await app.audit.list()).length;
        expect(await app.bulk.exportCsv(['bulk-d'], 'en')).toEqual({ saved: false, done: [], refused: [] });
        expect((await app.audit.list()).length).toBe(before);
      } finally {
        refuseSave = false;
      }
    });

    it('removes each row, audited, lists one not in the queue, and puts them back on undo', async () => {
      const removed = await app.bulk.remove(['bulk-d', 'bulk-e', 'never-added']);
      expect(removed.done).toEqual(['bulk-d', 'bulk-e']);
      expect(removed.refused).toEqual([expect.objectContaining({ interviewId: 'never-added', code: 'NOT_IN_QUEUE' })]);
      expect((await app.record.queue.getMany(ENV, ['bulk-d', 'bulk-e'])).size).toBe(0);
      expect(await actionsOn(app, 'removed')).toEqual(['bulk-d', 'bulk-e']);

      const restored = await app.bulk.restore(['bulk-d', 'bulk-e', 'bulk-a']);
      expect(restored.done).toEqual(['bulk-d', 'bulk-e']);
      expect(restored.refused).toEqual([
        expect.objectContaining({ interviewId: 'bulk-a', code: 'NOTHING_TO_RESTORE' }),
      ]);
      expect((await app.record.queue.get(ENV, 'bulk-d'))?.addedAt).toBeDefined();
      expect(await actionsOn(app, 'restored')).toEqual(['bulk-d', 'bulk-e']);
    });
  });

describe('bulk actions on a team database: the database judges each row', () => {
  const engines = engineFactory('team');
  let apps: Record<'ana' | 'beto' | 'sofia', ReturnType<typeof appOn>>;

  const opened: OpenRecord[] = [];

  beforeAll(async () => {
    const engine = await engines.fresh();
    if (engine.kind !== 'team') throw new Error('a team engine was asked for');
    // The owner's first opening creates the record (migrations); the analysts then log in with their own roles.
    await (await openRecord(engine)).close();
    const { host, port, database } = engine;
    const admin = new pg.Client({ host, port, user: 'postgres', database });
    await admin.connect();
    await admin.query(`
      create role ana login in role omni_reviewer;
      create role beto login in role omni_reviewer;
      create role sofia login in role omni_supervisor;`);
    await admin.end();
    const as = async (user: string) => {
      const open = await openRecord({ ...engine, user });
      opened.push(open);
      return appOn(open);
    };
    apps = { ana: await as('ana'), beto: await as('beto'), sofia: await as('sofia') };
    // Each adds their own: the team database keeps who added an entry.
    await apps.ana.record.queue.put(ENV, [entry('ana-1', 30), entry('ana-2', 20)]);
    await apps.beto.record.queue.put(ENV, [entry('beto-1', 10), entry('beto-2', 5)]);
  }, 90_000);
  afterAll(async () => {
    await Promise.all(opened.map((o) => o.close()));
    await engines.dispose();
  });

  it("refuses a reviewer's removal of another's entry, row by row, and lets a supervisor's through", async () => {
    const byAna = await apps.ana.bulk.remove(['ana-1', 'beto-1']);
    expect(byAna.done).toEqual(['ana-1']);
    expect(byAna.refused).toEqual([
      expect.objectContaining({
        interviewId: 'beto-1',
        code: 'REMOVE_REFUSED',
        message: expect.objectContaining({ en: expect.stringContaining('The team database kept it') }),
      }),
    ]);
    expect(await apps.ana.record.queue.get(ENV, 'beto-1')).toBeDefined();
    const bySofia = await apps.sofia.bulk.remove(['beto-1']);
    expect(bySofia).toEqual({ done: ['beto-1'], refused: [] });
    const removals = (await apps.sofia.audit.list()).filter((e) => e.action === 'removed');
    expect(removals.map((e) => [e.interviewId, e.actor])).toEqual([
      ['ana-1', 'ana'],
      ['beto-1', 'sofia'],
    ]);
  });

  it("refuses a reviewer's release of another's claim, naming the holder; a supervisor releases it", async () => {
    await apps.ana.desk.claim('ana-2');
    await apps.beto.desk.claim('beto-2');
    const byAna = await apps.ana.bulk.release(['ana-2', 'beto-2']);
    expect(byAna.done).toEqual(['ana-2']);
    expect(byAna.refused).toEqual([
      expect.objectContaining({
        interviewId: 'beto-2',
        code: 'HELD_BY_OTHER',
        message: { en: expect.stringContaining('Held by beto'), es: expect.stringContaining('La tiene beto') },
      }),
    ]);
    expect((await apps.ana.record.claims.holders(ENV)).map((c) => [c.interviewId, c.holder])).toEqual([
      ['beto-2', 'beto'],
    ]);
    expect(await apps.sofia.bulk.release(['beto-2'])).toEqual({ done: ['beto-2'], refused: [] });
    const released = (await apps.sofia.audit.list()).filter((e) => e.action === 'released');
    expect(released.map((e) => [e.interviewId, e.actor, e.detail])).toEqual([
      ['ana-2', 'ana', {}],
      ['beto-2', 'sofia', { of: 'beto' }],
    ]);
  });

  it('hands over for a supervisor only, and lists a login that is not a reviewer', async () => {
    const byAna = await apps.ana.bulk.handOver(['ana-2'], 'beto');
    expect(byAna.refused).toEqual([expect.objectContaining({ interviewId: 'ana-2', code: 'SUPERVISORS_ONLY' })]);
    const bySofia = await apps.sofia.bulk.handOver(['ana-2', 'beto-2'], 'beto');
    expect(bySofia).toEqual({ done: ['ana-2', 'beto-2'], refused: [] });
    expect((await apps.beto.desk.holders()).map((c) => [c.interviewId, c.holder, c.mine])).toEqual([
      ['ana-2', 'beto', true],
      ['beto-2', 'beto', true],
    ]);
    const toNobody = await apps.sofia.bulk.handOver(['ana-2'], 'nobody_here');
    expect(toNobody.refused).toEqual([expect.objectContaining({ interviewId: 'ana-2', code: 'NOT_A_REVIEWER' })]);
    const handed = (await apps.sofia.audit.list()).filter((e) => e.action === 'reassigned');
    expect(handed.map((e) => [e.interviewId, e.detail])).toEqual([
      ['ana-2', { to: 'beto' }],
      ['beto-2', { to: 'beto' }],
    ]);
  });
});
