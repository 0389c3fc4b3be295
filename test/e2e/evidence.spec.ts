import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { readZip, writeZip } from '../../main/evidence/zip';
import { expect, test, openApp, testOpeningTheApp } from './fixtures';
import { expectAxeClean, goTo, openInterview, panelsSettled, SHOTS } from './review-helpers';

/**
 * The regulator's file in the screens: exported from the workspace's audit trail with a stated purpose, opened in
 * Signing → Verify an evidence file (verified; then with one part altered, that part named), in English and in
 * Spanish; and a batch of 50 decided interviews written with progress, paused and resumed.
 */

const WORDS = {
  en: {
    open: 'Evidence file…',
    purpose: 'Purpose of the export',
    export: 'Export evidence file',
    verify: 'Verify file',
    valid: 'Verified: nothing changed since the export',
    invalid: 'Not valid: 1 part(s) failed',
    fileLabel: 'Evidence file (.zip)',
    cmsStep: '6. Token’s CMS signature',
    later: /Not the record as it stands: the trail holds 1 later change\(s\) of this interview, the last one “Noted”/,
  },
  es: {
    open: 'Expediente de evidencia…',
    purpose: 'Propósito de la exportación',
    export: 'Exportar expediente',
    verify: 'Verificar expediente',
    valid: 'Verificado: nada cambió desde la exportación',
    invalid: 'No válido: 1 parte(s) fallaron',
    fileLabel: 'Expediente de evidencia (.zip)',
    cmsStep: '6. Firma CMS del sello',
    later:
      /No es el registro actual: la bitácora tiene 1 cambio\(s\) posteriores de esta entrevista; el último, «Anotó»/,
  },
} as const;

async function openSigning(page: Page) {
  await goTo(page, '/signing');
  await expect(page.getByRole('heading', { level: 1 })).toContainText(/NOM-151/);
}

for (const language of ['en', 'es'] as const) {
  testOpeningTheApp(
    `export an interview's evidence file and verify it in Signing, then an altered one (${language})`,
    async ({ page, shell }, testInfo) => {
      const w = WORDS[language];
      await shell.ipc('settings.setPreferences', { language });
      await openApp(page, shell);
      await openInterview(page, shell, 'demo-clean-pass');
      await panelsSettled(page);

      await page.getByRole('button', { name: w.open }).click();
      const form = page.getByTestId('evidence-export');
      await form
        .getByLabel(w.purpose)
        .fill(language === 'es' ? 'Inspección CNBV, oficio 7/2026' : 'CNBV inspection 7/2026');
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        form.getByRole('button', { name: w.export }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^evidence-demo-clean-pass-.*\.zip$/);
      const path = testInfo.outputPath('evidence.zip');
      await download.saveAs(path);
      await expect(form.getByTestId('evidence-saved')).toContainText(/[0-9a-f]{64}/);
      await form.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/evidence-export-${language}.png` });
      // The export is in the trail, with its purpose.
      const trail = await shell.ipc<{ entries: { action: string; detail: { what?: string; purpose?: string } }[] }>(
        'interview.audit',
        { interviewId: 'demo-clean-pass' },
      );
      expect(trail.entries.filter((e) => e.detail.what === 'evidenceFile')).toHaveLength(1);

      await openSigning(page);
      const section = page.locator('section.signing-verify-file');
      await section.getByLabel(w.fileLabel).setInputFiles(path);
      await section.getByRole('button', { name: w.verify }).click();
      const result = section.getByTestId('evidence-file-result');
      await expect(result).toHaveAttribute('data-valid', 'true');
      await expect(result).toContainText(w.valid);
      await expect(result).toContainText('demo-clean-pass');
      await section.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/evidence-verified-${language}.png` });
      await expectAxeClean(page);

      // One byte of a part changed, the archive rewritten as a forger would: the part is named.
      const parts = readZip(new Uint8Array(await readFile(path)));
      const verifyAltered = async (part: string, name: string) => {
        const altered = writeZip(
          parts.map((p) => {
            if (p.path !== part) return p;
            const data = new Uint8Array(p.data);
            data[Math.floor(data.length / 2)]! ^= 1;
            return { path: p.path, data };
          }),
        );
        const alteredPath = testInfo.outputPath(name);
        await writeFile(alteredPath, altered);
        await section.getByLabel(w.fileLabel).setInputFiles(alteredPath);
        await section.getByRole('button', { name: w.verify }).click();
        await expect(result).toHaveAttribute('data-valid', 'false');
        await expect(result).toContainText(w.invalid);
        await expect(section.getByTestId('evidence-failed')).toContainText(part);
      };
      await verifyAltered('decisions.json', 'altered.zip');
      await section.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/evidence-altered-${language}.png` });
      // A contract's token: its own stamp and its CMS signature (step 6) fail, besides the manifest's line.
      const token = parts.find((p) => p.path.startsWith('contracts/') && p.path.endsWith('.tst'))!.path;
      await verifyAltered(token, 'altered-token.zip');
      const failed = section.getByTestId('evidence-failed');
      await expect(failed.getByRole('row').filter({ hasText: w.cmsStep })).toContainText(token);
      await failed.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/evidence-altered-token-${language}.png` });

      // The genuine file again, after a note was sent: still valid, and said to be older than the record.
      await shell.ipc('interview.saveDraft', { interviewId: 'demo-clean-pass', kind: 'notes', text: 'Added later' });
      await shell.ipc('interview.sendNotes', { interviewId: 'demo-clean-pass' });
      await section.getByLabel(w.fileLabel).setInputFiles(path);
      await section.getByRole('button', { name: w.verify }).click();
      await expect(result).toHaveAttribute('data-valid', 'true');
      await expect(result.getByTestId('evidence-file-later')).toContainText(w.later);
      await section.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/evidence-later-${language}.png` });
    },
  );
}

/** 50 interviews decided on 2 Nov 2026, as a record of an earlier version left them (imported at start). */
const DECIDED = Array.from({ length: 50 }, (_, i) => `batch-${String(i + 1).padStart(3, '0')}`);
const decisionsFile = JSON.stringify({
  'review.decisions.demo': Object.fromEntries(
    DECIDED.map((id, i) => [
      id,
      [
        {
          decision: i % 3 === 0 ? 'reject' : 'approve',
          reason: `Reason ${i + 1}`,
          acknowledgedFindings: [],
          decidedAt: `2026-11-02T${String(8 + (i % 10)).padStart(2, '0')}:${String(i).padStart(2, '0')}:00.000Z`,
          environment: 'demo',
        },
      ],
    ]),
  ),
});

test.describe('a batch for a period', () => {
  // The shells of this block write their batches here (evidenceFolder()): one folder per worker.
  const folder = join(tmpdir(), `omni-evidence-batch-${process.pid}`);
  test.beforeAll(async () => {
    await mkdir(folder, { recursive: true });
  });
  test.afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });
  test.use({
    storeFiles: { 'omni-reviewer-decisions': decisionsFile },
    shellEnv: { OMNI_REVIEWER_EVIDENCE_DIR: folder },
  });

  test('writes the 50 files of the interviews decided in it, with progress, paused and resumed', async ({ page }) => {
    test.setTimeout(180_000);
    await openSigning(page);
    const section = page.locator('section.signing-evidence-batch');
    await section.getByLabel('From').fill('2026-11-01');
    await section.getByLabel('To').fill('2026-11-02');
    await section.getByLabel('Purpose of the export').fill('Annual review of November');
    await section.getByRole('button', { name: 'Write the files' }).click();
    const job = section.getByTestId('evidence-batch-job');
    const bar = job.getByRole('progressbar');
    await expect(bar).toHaveAttribute('aria-valuemax', /.+/);
    await expect(section.getByTestId('evidence-batch-status')).toContainText(/of 50 written/);

    await section.getByRole('button', { name: 'Pause' }).click();
    await expect(job).toHaveAttribute('data-state', 'paused');
    const pausedAt = Number((await bar.getAttribute('aria-valuenow')) ?? '0');
    expect(pausedAt).toBeLessThan(50);
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/evidence-batch-paused.png` });
    // Paused is paused: the files on disk are the ones counted, none being written.
    await expect(section.getByTestId('evidence-batch-status')).toContainText(`Paused after ${pausedAt} of 50`);
    const [batchFolder] = await readdir(folder);
    const zips = batchFolder ? (await readdir(join(folder, batchFolder))).filter((f) => f.endsWith('.zip')) : [];
    expect(zips).toHaveLength(pausedAt);

    await section.getByRole('button', { name: 'Resume' }).click();
    await expect(job).toHaveAttribute('data-state', 'done', { timeout: 150_000 });
    await expect(section.getByTestId('evidence-batch-status')).toContainText(
      'All 50 file(s) written, with their index',
    );
    await page.screenshot({ path: `${SHOTS}/evidence-batch-done.png` });

    const [written] = await readdir(folder);
    const files = await readdir(join(folder, written!));
    expect(files.filter((f) => f.endsWith('.zip'))).toHaveLength(50);
    const index = (await readFile(join(folder, written!, 'index.csv'), 'utf8')).trim().split('\n');
    expect(index).toHaveLength(51);
    expect(
      index
        .slice(1)
        .map((line) => line.split(',')[0])
        .sort(),
    ).toEqual(DECIDED);
    expect(index.slice(1).every((line) => line.includes(',written,'))).toBe(true);
  });
});
