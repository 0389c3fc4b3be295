import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { PDFDocument, PDFName, type PDFHexString, type PDFString } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContextHandle } from '../../../main/app-context';
import { evidenceService } from '../../../main/evidence/service';
import { tokenDer, type ExportInfo } from '../../../main/evidence/file';
import { nom151Service } from '../../../main/nom151/service';
import { checkpointStatement } from '../../../main/trail/checkpoints';
import { LISTING_COMMAND, NAMES_COMMAND } from '../../../main/evidence/verify-text';
import { verifyEvidenceFile, type ExportRecord } from '../../../main/evidence/verify';
import { readZip, writeZip } from '../../../main/evidence/zip';
import { reviewService } from '../../../main/review/service';
import { settingsService } from '../../../main/settings/service';
import { startTestApp } from '../../helpers/app-context';

/**
 * The regulator's file, end to end on the demo service: an interview is opened, noted and decided; its evidence file
 * is exported, opened as VERIFY.txt says, and every command of VERIFY.txt is run by a shell with OpenSSL and
 * coreutils alone. Then one byte of each part is altered in turn: each command that must fail does, and the app's own
 * check names the part.
 */
let app: AppContextHandle;
let dir: string;
let saved: { name: string; data: Uint8Array } | undefined;
let decidedFile: Uint8Array;
const ID = 'demo-clean-pass';
const OTHER = 'demo-fraud-high';
const NOTE = 'Cotejé la identificación con la selfie';
const OTHER_NOTE = 'Nota de otra entrevista que no debe salir';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'omni-evidence-'));
  app = await startTestApp(dir, {
    files: {
      save: async ({ suggestedName, data }) => {
        saved = { name: suggestedName, data };
        return { savedTo: join(dir, suggestedName) };
      },
    },
  });
}, 60_000);

afterAll(async () => {
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Every command line of VERIFY.txt (four spaces, `$ `), in order. */
const commandsOf = (verifyTxt: string) =>
  verifyTxt
    .split('\n')
    .filter((l) => l.startsWith('    $ '))
    .map((l) => l.slice(6));

/** Runs each command with `sh -c` in the folder; the ones that exited non-zero. */
function failing(folder: string, commands: string[]): string[] {
  return commands.filter(
    (c) =>
      spawnSync('/bin/sh', ['-c', c], { cwd: folder, stdio: 'ignore', env: { PATH: '/usr/bin:/bin' } }).status !== 0,
  );
}

const filesUnder = (root: string, folder = root): string[] =>
  readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? filesUnder(root, path) : [relative(root, path)];
  });

describe('the evidence file of an interview', () => {
  it('verifies with the commands of its own VERIFY.txt, and each altered part fails the commands that must fail', async () => {
    const ctx = app.context;
    const review = reviewService(ctx);
    await review.addDemoSeeds([ID, OTHER]);
    await review.open(OTHER);
    await review.saveDraft(OTHER, 'notes', OTHER_NOTE);
    await review.sendText(OTHER, 'notes');
    await review.open(ID);
    await review.saveDraft(ID, 'notes', NOTE);
    await review.sendText(ID, 'notes');
    await review.saveDraft(ID, 'decisionReason', 'Todo coincide');
    await review.decide(ID, 'approve', 'Todo coincide', false);

    const result = await evidenceService(ctx).exportFile({
      interviewId: ID,
      language: 'es',
      purpose: 'Revisión de la CNBV, oficio 123/2026',
    });
    expect(result).toMatchObject({ fileName: expect.stringMatching(/^evidence-demo-clean-pass-.*\.zip$/) });
    decidedFile = saved!.data;
    const zip = join(dir, 'file.zip');
    writeFileSync(zip, saved!.data);

    // STEP 0 as VERIFY.txt says: python3's zipfile opens it (the parts are stored).
    const folder = join(dir, 'opened');
    execFileSync('python3', ['-m', 'zipfile', '-e', zip, folder]);
    const parts = filesUnder(folder).sort();
    const verifyTxt = readFileSync(join(folder, 'VERIFY.txt'), 'utf8');
    expect(verifyTxt).toContain('python3 -m zipfile -e');
    expect(verifyTxt).toContain('Propósito declarado: Revisión de la CNBV, oficio 123/2026');
    const commands = commandsOf(verifyTxt);
    expect(commands).toContain('sha256sum -c MANIFEST.sha256');
    expect(commands.some((c) => c.startsWith('grep -Fxq'))).toBe(true);
    expect(commands.filter((c) => c.includes('-data contracts/'))).toHaveLength(2);
    // STEP 6: every token (the manifest's, each checkpoint's, each contract's) through OpenSSL's CMS verifier too.
    const tokens = filesUnder(folder).filter((p) => p.endsWith('.tst'));
    expect(tokens.length).toBeGreaterThanOrEqual(4);
    const cms = commands.filter((c) => c.startsWith('openssl cms -verify'));
    expect(cms.map((c) => /-in (\S+) /.exec(c)![1]).sort()).toEqual(tokens.sort());
    expect(failing(folder, commands)).toEqual([]);
    // What CMS verified: the signed time-stamp info, written beside the token, names the manifest's SHA-256.
    const manifestInfo = execFileSync('openssl', ['asn1parse', '-inform', 'DER', '-in', 'MANIFEST.tstinfo'], {
      cwd: folder,
      encoding: 'utf8',
    });
    const manifestSha256 = execFileSync('sha256sum', ['MANIFEST.sha256'], { cwd: folder, encoding: 'utf8' });
    expect(manifestInfo).toContain(`[HEX DUMP]:${manifestSha256.slice(0, 64).toUpperCase()}`);

    // What it holds: the decision, the note as sent with the service's answer, this interview's entries only, and
    // the export itself (who, when, why) as one of them.
    const info = JSON.parse(readFileSync(join(folder, 'export.json'), 'utf8'));
    expect(info).toMatchObject({ interviewId: ID, purpose: 'Revisión de la CNBV, oficio 123/2026', unproved: [] });
    const decisions = JSON.parse(readFileSync(join(folder, 'decisions.json'), 'utf8'));
    expect(decisions.decisions).toEqual([expect.objectContaining({ decision: 'approve', status: 'final' })]);
    const writes = JSON.parse(readFileSync(join(folder, 'service-writes.json'), 'utf8'));
    expect(writes.writes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'notes', body: NOTE, state: 'sent', answer: expect.anything() }),
        expect.objectContaining({ kind: 'decision', state: 'sent' }),
      ]),
    );
    const exportEntry = readFileSync(join(folder, `trail/entries/${info.exportEntry}.txt`), 'utf8');
    expect(exportEntry).toContain('"evidenceFile"');
    expect(exportEntry).toContain('Revisión de la CNBV');
    for (const part of parts) {
      const bytes = readFileSync(join(folder, part));
      expect(bytes.includes(OTHER), part).toBe(false);
      expect(bytes.includes(OTHER_NOTE), part).toBe(false);
    }
    // The report is the reader's language.
    const report = await PDFDocument.load(readFileSync(join(folder, 'report.pdf')));
    expect((report.catalog.lookup(PDFName.of('Lang')) as PDFString | PDFHexString).decodeText()).toBe('es-MX');

    // The app's check of the same file agrees.
    const service = evidenceService(ctx);
    const check = (bytes: Uint8Array) =>
      service.verifyFile({ name: 'f.zip', base64: Buffer.from(bytes).toString('base64') });
    expect(await check(saved!.data)).toMatchObject({ valid: true, failedParts: [], interviewId: ID });

    // One byte of each part altered in turn.
    const manifestStamp = commands.filter(
      (c) => c.includes('-data MANIFEST.sha256') || c.includes('< MANIFEST.sha256 '),
    );
    expect(manifestStamp).toHaveLength(2);
    const mustFail = (part: string): string[] => {
      if (part === 'MANIFEST.sha256' || part === 'MANIFEST.tst') return manifestStamp;
      const own = commands.filter(
        (c) => c.includes(`-data ${part} `) || c.includes(`-in ${part} `) || c.includes(`< ${part} `),
      );
      // The provider's root: every stamp checked against it fails.
      if (part === 'nom151-root.pem')
        return [
          'sha256sum -c MANIFEST.sha256',
          ...commands.filter((c) => c.startsWith('openssl ts -verify') || c.startsWith('openssl cms -verify')),
        ];
      return ['sha256sum -c MANIFEST.sha256', ...own];
    };
    expect(parts.length).toBeGreaterThan(10);
    for (const part of parts) {
      const copy = join(dir, 'altered');
      rmSync(copy, { recursive: true, force: true });
      cpSync(folder, copy, { recursive: true });
      const bytes = readFileSync(join(copy, part));
      bytes[Math.floor(bytes.length / 2)]! ^= 0x01;
      writeFileSync(join(copy, part), bytes);
      const failed = failing(copy, commands);
      const expected = mustFail(part);
      expect(expected.length, part).toBeGreaterThan(0);
      for (const c of expected) expect(failed, `${part}: ${c}`).toContain(c);
      // The manifest's own stamp still holds unless the manifest was touched: the failure points at the part.
      if (!part.startsWith('MANIFEST.') && part !== 'nom151-root.pem')
        expect(
          failed.some((c) => manifestStamp.includes(c)),
          part,
        ).toBe(false);

      // The app, given the file rewritten with that part altered (a valid archive), names it.
      const rezipped = writeZip(
        readZip(saved!.data).map((p) => ({ path: p.path, data: p.path === part ? bytes : p.data })),
      );
      const verdict = await check(rezipped);
      expect(verdict.valid, part).toBe(false);
      expect(verdict.failedParts, part).toContain(part);
    }

    // A forger who changes an entry and rewrites its line of the manifest passes sha256sum, and fails the stamp of
    // the manifest and the entry's inclusion.
    const forged = join(dir, 'forged');
    cpSync(folder, forged, { recursive: true });
    const entryPath = `trail/entries/${info.exportEntry}.txt`;
    const changed = readFileSync(join(forged, entryPath), 'utf8').replace('CNBV', 'CNBX');
    writeFileSync(join(forged, entryPath), changed);
    const newHash = execFileSync('sha256sum', [entryPath], { cwd: forged, encoding: 'utf8' }).slice(0, 64);
    const manifest = readFileSync(join(forged, 'MANIFEST.sha256'), 'utf8').replace(
      new RegExp(`^[0-9a-f]{64}  ${entryPath.replace(/\./g, '\\.')}$`, 'm'),
      `${newHash}  ${entryPath}`,
    );
    writeFileSync(join(forged, 'MANIFEST.sha256'), manifest);
    const forgedFails = failing(forged, commands);
    expect(forgedFails).not.toContain('sha256sum -c MANIFEST.sha256');
    expect(forgedFails).toEqual(
      expect.arrayContaining([...manifestStamp, commands.find((c) => c.includes(`< ${entryPath} `))!]),
    );

    // A part added beside the listed ones (an "addendum"): sha256sum checks only what the manifest lists; the folder's
    // listing does not match it.
    const added = join(dir, 'added');
    cpSync(folder, added, { recursive: true });
    writeFileSync(join(added, 'decisions-amended.json'), '{"decision": "reject"}');
    expect(failing(added, commands)).toEqual([LISTING_COMMAND]);
    // Nor under a name STEP 6's own output has, nor as a link.
    rmSync(join(added, 'decisions-amended.json'));
    writeFileSync(join(added, 'DECISION-CORRECTED.tstinfo'), 'approve');
    expect(failing(added, commands)).toEqual([LISTING_COMMAND]);
    rmSync(join(added, 'DECISION-CORRECTED.tstinfo'));
    symlinkSync('report.pdf', join(added, 'report-amended.pdf'));
    expect(failing(added, commands)).toEqual([LISTING_COMMAND]);
    // Nor under a name python3's zipfile extracts with its line break, which the listing read as two listed parts.
    rmSync(join(added, 'report-amended.pdf'));
    writeFileSync(join(added, 'VERIFY.txt\nreport.pdf'), 'ADDENDUM: the reviewer later withdrew the approval.');
    expect(failing(added, commands)).toEqual([NAMES_COMMAND]);
  }, 240_000);

  it('says which entries a checkpoint of the earlier version covers: not provable offline, the rest still verifies', async () => {
    const ctx = app.context;
    const review = reviewService(ctx);
    const ID2 = 'demo-contracts-many';
    await review.addDemoSeeds([ID2]);
    const old = await ctx.audit.append({ interviewId: ID2, action: 'opened', detail: {} });
    // A checkpoint as versions before statement 2 took it: the head alone.
    const v1 = await nom151Service(ctx).stamp(checkpointStatement(old.seq, old.hash));
    await ctx.audit.append({
      action: 'checkpoint',
      detail: { seq: old.seq, hash: old.hash, folio: v1.folio, token: v1.token },
    });
    saved = undefined;
    await evidenceService(ctx).exportFile({ interviewId: ID2, language: 'en', purpose: 'Legacy check' });
    const zip = join(dir, 'legacy.zip');
    writeFileSync(zip, saved!.data);
    const folder = join(dir, 'legacy');
    execFileSync('python3', ['-m', 'zipfile', '-e', zip, folder]);
    const info = JSON.parse(readFileSync(join(folder, 'export.json'), 'utf8'));
    expect(info.unproved).toEqual([{ seq: old.seq, why: 'v1-checkpoint' }]);
    expect(info.proofs.map((p: { seq: number }) => p.seq)).not.toContain(old.seq);
    const verifyTxt = readFileSync(join(folder, 'VERIFY.txt'), 'utf8');
    expect(verifyTxt).toContain(`Not provable offline:\n  #${old.seq}: covered by a checkpoint of an earlier version`);
    const commands = commandsOf(verifyTxt);
    expect(commands.some((c) => c.includes(`trail/entries/${old.seq}.txt`))).toBe(false);
    expect(failing(folder, commands)).toEqual([]);
    const verdict = await evidenceService(ctx).verifyFile({
      name: 'legacy.zip',
      base64: Buffer.from(saved!.data).toString('base64'),
    });
    expect(verdict).toMatchObject({ valid: true, unproved: [old.seq] });
  }, 120_000);

  it('offers no checkpoint whose token is not the provider’s as proof: its stretch is stamped again, or its entries are listed as not provable, and why', async () => {
    const ctx = app.context;
    const ID3 = 'demo-no-fraud-risk';
    await reviewService(ctx).addDemoSeeds([ID3]);
    // Well formed (as the team database would take it from any login), with a token of nobody's: each its own, since
    // a token is on the trail once (migration 0016).
    let junks = 0;
    const junk = async (entry: { seq: number; hash?: string }, from: number) =>
      ctx.audit.append({
        action: 'checkpoint',
        detail: {
          seq: entry.seq,
          hash: entry.hash,
          statement: 2,
          from,
          folio: 'x',
          token: Buffer.from(`not a timestamp ${++junks}`).toString('base64'),
        },
      });
    const exported = async () => {
      saved = undefined;
      await evidenceService(ctx).exportFile({ interviewId: ID3, language: 'es', purpose: 'Revisión' });
      const parts = new Map(readZip(saved!.data).map((p) => [p.path, Buffer.from(p.data).toString('utf8')]));
      return { parts, info: JSON.parse(parts.get('export.json')!) as ExportInfo };
    };
    const start = (await ctx.audit.latest('checkpoint'))!;
    const first = await ctx.audit.append({ interviewId: ID3, action: 'opened', detail: {} });
    const junked = await junk(first, (start.detail.seq as number) + 1);
    // The export stamps the stretch again, and proves the entry with that.
    const once = await exported();
    expect(once.info.unproved.map((u) => u.seq)).not.toContain(first.seq);
    const proof = once.info.proofs.find((p) => p.seq === first.seq)!;
    expect(proof.checkpoint).toBeGreaterThan(junked.seq);

    // Covered by more junk than is tried for a proof: listed as not provable, and why.
    const opened = await ctx.audit.append({ interviewId: ID3, action: 'opened', detail: {} });
    const from = ((await ctx.audit.latest('checkpoint'))!.detail.seq as number) + 1;
    for (let i = 0; i < 17; i++) await junk(opened, from);
    const { parts, info } = await exported();
    expect(info.unproved).toContainEqual({ seq: opened.seq, why: 'bad-checkpoint' });
    expect(parts.get('VERIFY.txt')).toContain(`#${opened.seq}: cubierta por un punto de control cuyo sello no es el`);
    const verdict = await evidenceService(ctx).verifyFile({
      name: 'x.zip',
      base64: Buffer.from(saved!.data).toString('base64'),
    });
    expect(verdict).toMatchObject({ valid: true, failedParts: [] });
    expect(verdict.unproved).toContain(opened.seq);
  });

  it('finds a rewritten file whose statements and manifest were stamped again: not the checkpoints of its trail', async () => {
    // A stamp proves when, not who: anyone can have the service stamp a statement and a manifest of their own.
    const nom151 = nom151Service(app.context);
    const parts = readZip(saved!.data).map((p) => ({ path: p.path, data: new Uint8Array(p.data) }));
    const info = JSON.parse(
      Buffer.from(parts.find((p) => p.path === 'export.json')!.data).toString('utf8'),
    ) as ExportInfo;
    const { seq, checkpoint } = info.proofs[0]!;
    const part = (path: string) => parts.find((p) => p.path === path)!;
    const entry = part(`trail/entries/${seq}.txt`);
    entry.data = Buffer.from(Buffer.from(entry.data).toString('utf8').replace(/"/, '"forged'));
    const statement = part(`trail/checkpoints/${checkpoint}.statement.txt`);
    const forgedStatement = Buffer.from(statement.data)
      .toString('utf8')
      .replace(
        new RegExp(`^${seq} [0-9a-f]{64}$`, 'm'),
        `${seq} ${createHash('sha256').update(entry.data).digest('hex')}`,
      );
    statement.data = Buffer.from(forgedStatement);
    part(`trail/checkpoints/${checkpoint}.tst`).data = new Uint8Array(
      tokenDer((await nom151.stamp(forgedStatement)).token),
    );
    const listed = parts.filter((p) => !p.path.startsWith('MANIFEST.'));
    const manifest = listed.map((p) => `${createHash('sha256').update(p.data).digest('hex')}  ${p.path}\n`).join('');
    part('MANIFEST.sha256').data = Buffer.from(manifest);
    part('MANIFEST.tst').data = new Uint8Array(tokenDer((await nom151.stamp(manifest)).token));

    const verdict = await evidenceService(app.context).verifyFile({
      name: 'rewritten.zip',
      base64: Buffer.from(writeZip(parts)).toString('base64'),
    });
    // Every step of VERIFY.txt holds for it; the trail this app is connected to does not have its checkpoint, and
    // recorded another manifest for the export.
    expect(verdict.checks.filter((c) => c.outcome !== 'ok')).toEqual([
      expect.objectContaining({
        step: 'trail',
        part: `trail/checkpoints/${checkpoint}.statement.txt`,
        outcome: 'notOnTrail',
      }),
      expect.objectContaining({ step: 'trail', part: 'MANIFEST.sha256', outcome: 'failed' }),
    ]);
    expect(verdict.valid).toBe(false);
  });

  it('finds a file whose decision and exporter were rewritten and its manifest stamped again, its trail untouched', async () => {
    // The parts the trail's entries do not cover (decisions.json, export.json) rewritten, the manifest stamped again.
    const nom151 = nom151Service(app.context);
    // The first test's file: the interview noted and approved.
    const parts = readZip(decidedFile).map((p) => ({ path: p.path, data: new Uint8Array(p.data) }));
    const part = (path: string) => parts.find((p) => p.path === path)!;
    const rewrite = (path: string, change: (json: Record<string, unknown>) => void) => {
      const json = JSON.parse(Buffer.from(part(path).data).toString('utf8')) as Record<string, unknown>;
      change(json);
      part(path).data = Buffer.from(JSON.stringify(json));
    };
    rewrite('decisions.json', (json) => {
      const [first] = json.decisions as Record<string, unknown>[];
      expect(first).toMatchObject({ decision: 'approve', reason: 'Todo coincide' });
      Object.assign(first!, { decision: 'reject', reason: 'INE apócrifa' });
    });
    rewrite('export.json', (json) => Object.assign(json, { exportedBy: 'auditor.cnbv' }));
    const restamp = async () => {
      const listed = parts.filter((p) => !p.path.startsWith('MANIFEST.'));
      const manifest = listed.map((p) => `${createHash('sha256').update(p.data).digest('hex')}  ${p.path}\n`).join('');
      part('MANIFEST.sha256').data = Buffer.from(manifest);
      part('MANIFEST.tst').data = new Uint8Array(tokenDer((await nom151.stamp(manifest)).token));
      return writeZip(parts);
    };
    const rewritten = await restamp();

    const verdict = await evidenceService(app.context).verifyFile({
      name: 'rewritten.zip',
      base64: Buffer.from(rewritten).toString('base64'),
    });
    // Every step of VERIFY.txt holds; the trail recorded another manifest for the export, and the file's own proved
    // entries say approve, and another exporter.
    expect(verdict.checks.filter((c) => c.outcome !== 'ok')).toEqual([
      expect.objectContaining({ step: 'agreement', part: 'export.json', outcome: 'failed' }),
      // (On the demo, whose reset leaves no entry, a decision left out is not told from one reset: agree.test.ts.)
      expect.objectContaining({ step: 'agreement', part: 'decisions.json', outcome: 'notOnTrail' }),
      expect.objectContaining({
        step: 'trail',
        part: 'MANIFEST.sha256',
        outcome: 'failed',
        message: expect.objectContaining({ en: expect.stringContaining('recorded another manifest for this export') }),
      }),
    ]);

    // On a team's record the export's login is its exporter: a file naming another fails on export.json; an export
    // this trail does not hold, or whose manifest it did not record, is not confirmed.
    const stamps = (token: Uint8Array, data: Uint8Array) => nom151.verifyBytes(token, data);
    const onTrail = async () => 'same' as const;
    const later = async () => undefined;
    const genuine = createHash('sha256').update(part('MANIFEST.sha256').data).digest('hex');
    const onTheTrail = async (record: Awaited<ReturnType<ExportRecord>>) =>
      (await verifyEvidenceFile(rewritten, stamps, { onTrail, later, exportRecord: async () => record })).checks.filter(
        (c) => c.step === 'trail' && c.outcome !== 'ok',
      );
    expect(await onTheTrail({ by: 'ana', manifestSha256: genuine })).toEqual([
      expect.objectContaining({
        part: 'export.json',
        outcome: 'failed',
        message: expect.objectContaining({ es: expect.stringContaining('como de ana') }),
      }),
    ]);
    expect(await onTheTrail(undefined)).toEqual([
      expect.objectContaining({ part: 'export.json', outcome: 'notOnTrail' }),
    ]);
    expect(await onTheTrail({})).toEqual([expect.objectContaining({ part: 'MANIFEST.sha256', outcome: 'notOnTrail' })]);
  });

  it('says when a genuine file is no longer the record as it stands: a later note, not a later opening', async () => {
    const ctx = app.context;
    saved = undefined;
    await evidenceService(ctx).exportFile({ interviewId: ID, language: 'en', purpose: 'Auditor’s request' });
    const check = () =>
      evidenceService(ctx).verifyFile({ name: 'f.zip', base64: Buffer.from(saved!.data).toString('base64') });
    expect((await check()).laterChanges).toBeUndefined();
    await ctx.audit.append({ interviewId: ID, action: 'opened', detail: {} });
    await ctx.audit.append({ interviewId: OTHER, action: 'noted', detail: { note: OTHER_NOTE } });
    expect((await check()).laterChanges).toBeUndefined();
    const note = await ctx.audit.append({
      interviewId: ID,
      action: 'noted',
      detail: { note: 'Added after the export' },
    });
    const verdict = await check();
    expect(verdict).toMatchObject({
      valid: true,
      laterChanges: { count: 1, last: { action: 'noted', seq: note.seq, at: note.at } },
    });
  });

  it('verifies a genuine file after the demo data was reset and the interview decided again (no false alarm)', async () => {
    const ctx = app.context;
    const review = reviewService(ctx);
    const RESET = OTHER;
    await review.addDemoSeeds([RESET]);
    await review.decide(RESET, 'reject', 'Primera vez', false);
    await settingsService(ctx).resetDemoData();
    await review.addDemoSeeds([RESET]);
    await review.decide(RESET, 'reject', 'Segunda vez', false);
    saved = undefined;
    await evidenceService(ctx).exportFile({ interviewId: RESET, language: 'en', purpose: 'After a reset' });
    const verdict = await evidenceService(ctx).verifyFile({
      name: 'f.zip',
      base64: Buffer.from(saved!.data).toString('base64'),
    });
    expect(verdict.checks.filter((c) => c.outcome !== 'ok')).toEqual([]);
  });

  it('names export.json when it is not in the shape the app writes, and records the verification all the same', async () => {
    for (const info of [{ unproved: 'none' }, { proofs: {} }, { contracts: null }]) {
      const original = JSON.parse(
        Buffer.from(readZip(saved!.data).find((p) => p.path === 'export.json')!.data).toString('utf8'),
      ) as Record<string, unknown>;
      const broken = writeZip(
        readZip(saved!.data).map((p) => ({
          path: p.path,
          data: p.path === 'export.json' ? Buffer.from(JSON.stringify({ ...original, ...info })) : p.data,
        })),
      );
      const before = (await app.context.audit.latest('verified'))?.seq ?? 0;
      const verdict = await evidenceService(app.context).verifyFile({
        name: 'broken.zip',
        base64: Buffer.from(broken).toString('base64'),
      });
      expect(verdict.valid).toBe(false);
      expect(verdict.failedParts).toContain('export.json');
      expect((await app.context.audit.latest('verified'))!.seq).toBeGreaterThan(before);
    }
  });

  it('keeps a verification on the trail in a bounded size, the file’s name as it reads', async () => {
    // A file someone sent: thirty parts added under long names, its own name turned around by U+202E.
    const added = Array.from({ length: 30 }, (_, i) => ({
      path: `${'x'.repeat(5_000)}-${i}`,
      data: new Uint8Array(1),
    }));
    const zip = writeZip([...readZip(saved!.data).map((p) => ({ path: p.path, data: p.data })), ...added]);
    const verdict = await evidenceService(app.context).verifyFile({
      name: '\u202epiz.exe',
      base64: Buffer.from(zip).toString('base64'),
    });
    expect(verdict.failedParts).toHaveLength(30);
    const entry = (await app.context.audit.latest('verified'))!;
    expect(entry.detail.evidenceName).toBe('piz.exe');
    const failures = entry.detail.failures as string[];
    expect(failures).toHaveLength(21);
    expect(failures.at(-1)).toBe('… (+10)');
    expect(Math.max(...failures.map((f) => f.length))).toBe(200);
  });
});
