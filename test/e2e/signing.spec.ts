import { axeOf } from './axe';
import { readFile, writeFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, test, openApp, testOpeningTheApp } from './fixtures';

/**
 * A contract officer's journey: seal a signed contract, see the evidence verified, save the contract and its
 * constancia, verify them as a third party would, tamper with the contract, see the verification fail.
 */

async function openSigning(page: Page) {
  await page
    .getByRole('link', { name: /^(Signing|Firma)/ })
    .first()
    .click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(/NOM-151/);
}

async function axeClean(page: Page) {
  const { violations } = await axeOf(page).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

async function saveTo(page: Page, buttonName: string, path: string): Promise<string> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: buttonName }).click(),
  ]);
  await download.saveAs(path);
  return download.suggestedFilename();
}

test('seal a contract, see it verified, tamper with the file, see it fail', async ({ page }, testInfo) => {
  await openSigning(page);
  const seal = page.locator('section.signing-seal');
  await expect(seal.getByText(/No contract sealed yet/)).toBeVisible();

  await seal.getByLabel('Signed contract id').fill('demo-clean-pass-credito');
  await expect(seal.getByLabel('Include the signed document')).toBeChecked();
  await expect(seal.getByLabel('Include the PDF with the evidence attached')).toBeChecked();
  await seal.getByRole('button', { name: 'Seal with NOM-151' }).click();

  const result = seal.getByTestId('nom151-result').first();
  await expect(result.getByText('Verified', { exact: true })).toBeVisible();
  await expect(result.getByTestId('nom151-folio')).toHaveText(/^[0-9A-F]{32}$/);
  await expect(result).toContainText('Omni Reviewer Demo NOM-151 Provider');
  await expect(result).toContainText('The document’s hash matches the evidence');
  await expect(seal.locator('details.nom-secondary summary')).toContainText('Sealed PDF checked on its own: Verified');
  await page.screenshot({ path: testInfo.outputPath('1-sealed.png'), fullPage: true });
  await axeClean(page);

  const contractPath = testInfo.outputPath('contract.pdf');
  const evidencePath = testInfo.outputPath('constancia.tsr');
  const sealedPath = testInfo.outputPath('sealed.pdf');
  expect(await saveTo(page, 'Save the signed document', contractPath)).toBe('contrato-demo-clean-pass-credito.pdf');
  expect(await saveTo(page, 'Save the evidence (.tsr)', evidencePath)).toMatch(/constancia-nom151\.tsr$/);
  expect(await saveTo(page, 'Save the sealed PDF', sealedPath)).toMatch(/sellado-nom151\.pdf$/);
  await expect(seal.getByRole('status').filter({ hasText: 'download started' })).toBeVisible();

  // A third party checks what was saved.
  const verify = page.locator('section.signing-verify');
  await expect(verify.getByText(/No evidence checked yet/)).toBeVisible();
  await verify.getByLabel('Evidence or sealed PDF').setInputFiles(evidencePath);
  await verify.getByLabel('Document (optional with a sealed PDF)').setInputFiles(contractPath);
  await verify.getByRole('button', { name: 'Verify', exact: true }).click();
  const verdict = verify.getByTestId('nom151-result');
  await expect(verdict.getByText('Verified', { exact: true })).toBeVisible();

  // The sealed PDF alone verifies too: it carries the original.
  await verify.getByRole('button', { name: 'Remove' }).nth(1).click();
  await verify.getByLabel('Evidence or sealed PDF').setInputFiles(sealedPath);
  await verify.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(verdict).toContainText('The original carried inside the sealed PDF');
  await expect(verdict.getByText('Verified', { exact: true })).toBeVisible();

  // One byte of the contract changed: the evidence no longer matches.
  const bytes = await readFile(contractPath);
  const middle = Math.floor(bytes.length / 2);
  bytes[middle] = bytes[middle]! ^ 0x01;
  const tamperedPath = testInfo.outputPath('contract-tampered.pdf');
  await writeFile(tamperedPath, bytes);
  await verify.getByLabel('Evidence or sealed PDF').setInputFiles(evidencePath);
  await verify.getByLabel('Document (optional with a sealed PDF)').setInputFiles(tamperedPath);
  await verify.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(verdict.getByText('Not valid', { exact: true })).toBeVisible();
  await expect(verdict.getByTestId('nom151-failure')).toHaveText(/does not match the evidence/);
  await expect(verdict).toContainText('HASH_MISMATCH');
  await expect(verdict.locator('.nom-check-failed')).toHaveCount(1);
  await page.screenshot({ path: testInfo.outputPath('2-tampered.png'), fullPage: true });
  await axeClean(page);
});

testOpeningTheApp(
  'sign a string and read the evidence in Spanish; a broken evidence file fails cleanly',
  async ({ page, shell }, testInfo) => {
    await shell.ipc('settings.setPreferences', { language: 'es' });
    // An interview's contract links here with the id filled in.
    await openApp(page, shell);
    await page.evaluate(() => (window.location.hash = '#/signing?contract=demo-closed-credito'));
    await expect(page.getByRole('heading', { name: 'Sellar con NOM-151' })).toBeVisible();
    await expect(page.getByLabel('Id del contrato firmado')).toHaveValue('demo-closed-credito');

    const sign = page.locator('section.signing-string');
    await sign.getByRole('button', { name: 'Firmar con NOM-151' }).click();
    await expect(sign.getByRole('alert')).toHaveText('Escribe o carga el texto a firmar.');
    await sign.getByLabel('Cargar texto desde un archivo…').setInputFiles({
      name: 'acuerdo.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('Acepto el aviso de privacidad.'),
    });
    await expect(sign.getByLabel('Texto a firmar')).toHaveValue('Acepto el aviso de privacidad.');
    await sign.getByRole('button', { name: 'Firmar con NOM-151' }).click();
    const result = sign.getByTestId('nom151-result');
    await expect(result.getByText('Verificada', { exact: true })).toBeVisible();
    await expect(result).toContainText('Folio');
    await expect(result).toContainText('Hash SHA-256');

    const evidencePath = testInfo.outputPath('cadena.tsr');
    await saveTo(page, 'Guardar la constancia de conservación (.tsr)', evidencePath);
    const truncated = (await readFile(evidencePath)).subarray(0, 120);
    const verify = page.locator('section.signing-verify');
    await expect(verify.getByTestId('nom-evidence-name')).toHaveText('Ningún archivo elegido');
    await verify
      .getByLabel('Constancia o PDF sellado')
      .setInputFiles({ name: 'cortada.tsr', mimeType: 'application/octet-stream', buffer: truncated });
    await expect(verify.getByTestId('nom-evidence-name')).toHaveText('cortada.tsr · 120 B');
    await expect(verify.locator('label.btn', { hasText: 'Elegir otro…' })).toBeVisible();
    await verify.getByLabel('O el texto firmado').fill('Acepto el aviso de privacidad.');
    await verify.getByRole('button', { name: 'Verificar', exact: true }).click();
    const verdict = verify.getByTestId('nom151-result');
    await expect(verdict.getByText('No válida', { exact: true })).toBeVisible();
    await expect(verdict.getByTestId('nom151-failure')).toContainText('truncada');
    await page.screenshot({ path: testInfo.outputPath('3-es.png'), fullPage: true });
  },
);

test('a failed seal says what happened, shows its code, and Retry seals', async ({ page, shell }, testInfo) => {
  await openSigning(page);
  const seal = page.locator('section.signing-seal');
  await seal.getByRole('button', { name: 'Seal with NOM-151' }).click();
  await expect(seal.getByRole('alert')).toHaveText('Enter the id of the signed contract to seal.');

  expect(
    (await shell.demo('faults', { route: 'calculateContractNom151', kind: 'status', status: 500, times: 1 })).ok,
  ).toBe(true);
  await seal.getByLabel('Signed contract id').fill('demo-contracts-many-seguro');
  await seal.getByRole('button', { name: 'Seal with NOM-151' }).click();
  const error = seal.locator('.panel-error');
  await expect(error).toBeVisible();
  await expect(error.locator('.code')).toContainText('500');
  await page.screenshot({ path: testInfo.outputPath('4-error.png'), fullPage: true });
  await error.getByRole('button', { name: 'Retry' }).click();
  await expect(seal.getByTestId('nom151-result').first().getByText('Verified', { exact: true })).toBeVisible();

  // Neither option: the evidence arrives, but there is nothing to compare it with, and the screen says so.
  await seal.getByLabel('Include the signed document').uncheck();
  await seal.getByLabel('Include the PDF with the evidence attached').uncheck();
  await seal.getByRole('button', { name: 'Seal with NOM-151' }).click();
  const result = seal.getByTestId('nom151-result');
  await expect(result.getByText('Not fully verified', { exact: true })).toBeVisible();
  await expect(seal.getByText(/Seal again with “Include the signed document”/)).toBeVisible();
  await expect(seal.getByRole('button', { name: 'Save the evidence (.tsr)' })).toBeEnabled();
  await expect(seal.getByRole('button', { name: 'Save the sealed PDF' })).toHaveCount(0);
});
