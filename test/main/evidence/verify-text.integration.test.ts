import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NAMES_COMMAND, verifyText, type VerifyPlan } from '../../../main/evidence/verify-text';

/**
 * STEP 2 of VERIFY.txt as a shell runs it (coreutils and find), on a folder laid out as an opener leaves it. The whole
 * file, exported and opened, is evidence-file.integration.test.ts.
 */

const dir = mkdtempSync(join(tmpdir(), 'verify-text-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const plan: VerifyPlan = {
  fileName: 'f.zip',
  interviewId: 'i',
  exportedAt: '2026-11-27T10:00:00.000Z',
  exportedBy: 'ana',
  purpose: 'CNBV',
  rootFingerprints: [],
  checkpoints: [],
  entries: [],
  unproved: [],
  contracts: [],
};

/** The commands of STEP 2 (PASO 2), in order. */
const stepTwo = (text: string) => {
  const lines = text.split('\n');
  const from = lines.findIndex((l) => /^(STEP|PASO) 2\./.test(l));
  const to = lines.findIndex((l) => /^(STEP|PASO) 3\./.test(l));
  return lines
    .slice(from, to)
    .filter((l) => l.startsWith('    $ '))
    .map((l) => l.slice(6));
};

/** A folder as `python3 -m zipfile -e` leaves a genuine file: the listed parts, the manifest and its token. */
function opened(name: string): string {
  const folder = join(dir, name);
  mkdirSync(join(folder, 'trail'), { recursive: true });
  const parts: Record<string, string> = { 'VERIFY.txt': 'steps', 'report.pdf': '%PDF-1.7', 'trail/3.txt': 'entry' };
  for (const [path, text] of Object.entries(parts)) writeFileSync(join(folder, path), text);
  const sha = (text: string) => createHash('sha256').update(text).digest('hex');
  const manifest = Object.entries(parts).map(([path, text]) => `${sha(text)}  ${path}\n`);
  writeFileSync(join(folder, 'MANIFEST.sha256'), manifest.join(''));
  writeFileSync(join(folder, 'MANIFEST.tst'), 'token');
  return folder;
}

const failing = (folder: string, commands: string[]) =>
  commands.filter(
    (c) =>
      spawnSync('/bin/sh', ['-c', c], { cwd: folder, stdio: 'ignore', env: { PATH: '/usr/bin:/bin' } }).status !== 0,
  );

describe('STEP 2 of VERIFY.txt, nothing added', () => {
  for (const language of ['en', 'es'] as const)
    it(`fails on a name holding a line break, which the listing reads as two listed parts (${language})`, () => {
      const commands = stepTwo(verifyText(plan, language));
      const genuine = opened(`genuine-${language}`);
      expect(failing(genuine, commands)).toEqual([]);
      // An addendum named after two listed parts, as python3's zipfile extracts it (red team 17A): sha256sum checks
      // the listed parts only, and the listing read it as `VERIFY.txt` and `report.pdf`.
      const added = opened(`added-${language}`);
      writeFileSync(join(added, 'VERIFY.txt\nreport.pdf'), 'ADDENDUM: the approval was withdrawn.');
      expect(failing(added, commands)).toEqual([NAMES_COMMAND]);
      // In a folder too, and any byte that is not printable ASCII (the app's names are ASCII).
      const inFolder = opened(`folder-${language}`);
      mkdirSync(join(inFolder, 'trail\n'));
      writeFileSync(join(inFolder, 'trail\n', '3.txt'), 'other');
      expect(failing(inFolder, commands)).toContain(NAMES_COMMAND);
      const accented = opened(`accented-${language}`);
      writeFileSync(join(accented, 'reporte-revisión.pdf'), 'x');
      expect(failing(accented, commands)).toContain(NAMES_COMMAND);
    });
});
