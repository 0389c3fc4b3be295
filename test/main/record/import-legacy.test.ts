import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../common/views';
import { log } from '../../../main/log';
import { entryHash, GENESIS_HASH } from '../../../main/record/audit-chain';
import { recordAuditTrail } from '../../../main/record/audit-records';
import { importLegacyFiles } from '../../../main/record/import-legacy';
import { reviewRecord } from '../../../main/record/index';
import { MemoryJsonStore } from '../../helpers/fake-safe-storage';
import { engineFactory } from '../../helpers/record-engines';

const engines = engineFactory('embedded');
const folders: string[] = [];
afterAll(async () => {
  await engines.dispose();
  await Promise.all(folders.map((f) => rm(f, { recursive: true, force: true })));
});
const AT = () => Date.UTC(2026, 10, 25, 9, 0, 0);
const quiet = { ...log, info: () => undefined, warn: () => undefined };

/** A trail as the file version wrote it: one JSON line per entry, chained. */
function trail(count: number): AuditEntry[] {
  let prevHash = GENESIS_HASH;
  return Array.from({ length: count }, (_, i) => {
    const body = {
      seq: i + 1,
      at: new Date(Date.UTC(2026, 10, 1) + i * 60_000).toISOString(),
      environment: 'demo',
      interviewId: `i-${i % 3}`,
      action: i % 2 ? ('noted' as const) : ('opened' as const),
      detail: i % 2 ? { text: `Nota ${i}`, by: 'ana' } : {},
      prevHash,
    };
    prevHash = entryHash(body);
    return { ...body, hash: prevHash };
  });
}

/** The files of the version before the review record, as it left them in its data folder. */
function folderOfTodaysVersion(): string {
  const dir = mkdtempSync(join(tmpdir(), 'omni-legacy-'));
  folders.push(dir);
  writeFileSync(
    join(dir, 'omni-reviewer-queue.json'),
    JSON.stringify({
      'review.queue.demo': {
        'i-0': { interviewId: 'i-0', addedAt: '2026-11-01T00:00:00.000Z', localState: 'decided', label: 'Ana' },
        'i-1': {
          interviewId: 'i-1',
          addedAt: '2026-11-01T00:00:01.000Z',
          localState: 'inReview',
          sessionStatus: 'Alive',
          sessionStatusSeenAt: '2026-11-02T00:00:00.000Z',
          lastOpenedAt: '2026-11-02T00:00:00.000Z',
        },
      },
      'review.queue.production': {
        'p-1': { interviewId: 'p-1', addedAt: '2026-11-03T00:00:00.000Z', localState: 'toReview' },
      },
    }),
  );
  writeFileSync(
    join(dir, 'omni-reviewer-drafts.json'),
    JSON.stringify({
      'review.drafts.demo': {
        'i-1': {
          notes: { text: 'Rostro coincide', updatedAt: '2026-11-02T00:00:00.000Z' },
          name: {
            text: 'Ana María',
            updatedAt: '2026-11-02T00:00:00.000Z',
            lastError: { code: 'OMNI_HTTP', message: { en: 'Down', es: 'Caído' }, at: '2026-11-02T00:00:01.000Z' },
          },
        },
      },
    }),
  );
  writeFileSync(
    join(dir, 'omni-reviewer-decisions.json'),
    JSON.stringify({
      'review.decisions.demo': {
        'i-0': [
          {
            decision: 'approve',
            reason: 'OK',
            acknowledgedFindings: [],
            decidedAt: '2026-11-02T00:00:00.000Z',
            environment: 'demo',
          },
          {
            decision: 'reject',
            reason: 'Foto de pantalla',
            acknowledgedFindings: [],
            decidedAt: '2026-11-02T01:00:00.000Z',
            environment: 'demo',
          },
        ],
      },
    }),
  );
  writeFileSync(
    join(dir, 'audit-trail.jsonl'),
    trail(50)
      .map((e) => `${JSON.stringify(e)}\n`)
      .join(''),
  );
  return dir;
}

describe('the JSON files of earlier versions', () => {
  it('are imported once: the same queue, drafts, decisions and a verified chain; the files kept aside', async () => {
    const dir = folderOfTodaysVersion();
    const record = await engines.open();
    const settings = new MemoryJsonStore();
    settings.set('vault', { items: {} });
    const result = await importLegacyFiles(record.db, dir, settings, quiet, AT);
    expect(result).toEqual({
      imported: { queue: 3, drafts: 2, decisions: 2, audit: 50, damagedAuditLines: 0 },
      setAside: [],
    });

    const { queue, drafts, decisions } = reviewRecord(record);
    expect(await queue.list('demo')).toEqual([
      { interviewId: 'i-0', addedAt: '2026-11-01T00:00:00.000Z', localState: 'decided', label: 'Ana' },
      {
        interviewId: 'i-1',
        addedAt: '2026-11-01T00:00:01.000Z',
        localState: 'inReview',
        sessionStatus: 'Alive',
        sessionStatusSeenAt: '2026-11-02T00:00:00.000Z',
        lastOpenedAt: '2026-11-02T00:00:00.000Z',
      },
    ]);
    expect((await queue.list('production')).map((e) => e.interviewId)).toEqual(['p-1']);
    expect((await drafts.get('demo', 'i-1')).name?.lastError?.message.es).toBe('Caído');
    expect((await decisions.all('demo', 'i-0')).map((d) => d.decision)).toEqual(['approve', 'reject']);
    const audit = recordAuditTrail(record.db, () => 'demo');
    expect(await audit.list()).toEqual(trail(50));
    expect(await audit.verify()).toEqual({ ok: true });
    // The trail goes on from where the file ended.
    expect((await audit.append({ action: 'validated', detail: {} })).prevHash).toBe(trail(50)[49]!.hash);

    const left = readdirSync(dir).sort();
    expect(left).toEqual([
      'audit-trail.jsonl.imported-2026-11-25T09-00-00-000Z',
      'omni-reviewer-decisions.json.imported-2026-11-25T09-00-00-000Z',
      'omni-reviewer-drafts.json.imported-2026-11-25T09-00-00-000Z',
      'omni-reviewer-queue.json.imported-2026-11-25T09-00-00-000Z',
    ]);
    expect(await importLegacyFiles(record.db, dir, settings, quiet, AT)).toEqual({ setAside: [] });
    expect(settings.keys()).toEqual(['vault']);
  });

  it('a damaged file is set aside and the rest imported; a damaged trail line shows as the break it is', async () => {
    const dir = folderOfTodaysVersion();
    writeFileSync(join(dir, 'omni-reviewer-queue.json'), '{"review.queue.demo": {"i-0": ');
    const lines = trail(10).map((e) => JSON.stringify(e));
    lines[4] = lines[4]!.slice(0, 30);
    // The last line was being written when the app stopped.
    writeFileSync(join(dir, 'audit-trail.jsonl'), `${lines.join('\n')}\n{"seq":11,"at":"2026`);
    const record = await engines.open();
    const result = await importLegacyFiles(record.db, dir, new MemoryJsonStore(), quiet, AT);
    expect(result.setAside).toEqual([
      { kind: 'queue', path: join(dir, 'omni-reviewer-queue.unreadable-2026-11-25T09-00-00-000Z.json') },
    ]);
    expect(readFileSync(result.setAside[0]!.path, 'utf8')).toBe('{"review.queue.demo": {"i-0": ');
    expect(result.imported).toEqual({ queue: 0, drafts: 2, decisions: 2, audit: 9, damagedAuditLines: 2 });
    expect(await recordAuditTrail(record.db, () => 'demo').verify()).toEqual({ ok: false, brokenAt: 5 });
  });

  it('the oldest layout, everything in the settings file, is imported and leaves the settings file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'omni-legacy-'));
    folders.push(dir);
    const settings = new MemoryJsonStore();
    settings.set('vault', { items: {} });
    settings.set('review.queue.demo', { a: { interviewId: 'a', addedAt: '2026-10-01T00:00:00.000Z' } });
    settings.set('review.drafts.demo', { a: { notes: { text: 'x', updatedAt: '2026-10-01T00:00:00.000Z' } } });
    settings.set('auditTrail', trail(3));
    const record = await engines.open();
    const result = await importLegacyFiles(record.db, dir, settings, quiet, AT);
    expect(result.imported).toMatchObject({ queue: 1, drafts: 1, audit: 3 });
    expect(settings.keys()).toEqual(['vault']);
    expect((await reviewRecord(record).queue.get('demo', 'a'))?.localState).toBe('toReview');
    expect(await recordAuditTrail(record.db, () => 'demo').verify()).toEqual({ ok: true });
  });

  it('a start stopped after the import but before the files were renamed does not import them twice', async () => {
    const dir = folderOfTodaysVersion();
    const record = await engines.open();
    await importLegacyFiles(record.db, dir, new MemoryJsonStore(), quiet, AT);
    // Put back as if the renames had not happened.
    for (const name of readdirSync(dir)) {
      const original = name.replace(/\.imported-.*$/, '');
      writeFileSync(join(dir, original), readFileSync(join(dir, name)));
    }
    const again = await importLegacyFiles(record.db, dir, new MemoryJsonStore(), quiet, () => AT() + 1000);
    expect(again.imported).toBeUndefined();
    expect(await recordAuditTrail(record.db, () => 'demo').list()).toHaveLength(50);
    expect(existsSync(join(dir, 'omni-reviewer-queue.json'))).toBe(false);
  });
});
