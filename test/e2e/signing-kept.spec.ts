import { mkdir } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, openApp, testOpeningTheApp } from './fixtures';
import { expectAxeClean, goTo, openInterview, panelsSettled } from './review-helpers';

/**
 * UX review 20, H2 and M6. A NOM-151 seal result outlives the Signing screen: seal two contracts, go to the queue and
 * come back, and both are listed with their folio, time and Save buttons (the files still save; those not saved are
 * said to be so), and a contract sealed already says so before it is sealed again. From an interview, the contract's
 * button says it opens Signing, and Signing offers the way back to that interview. In English and in Spanish.
 */

const SHOTS = '.tmp/uxfix-seal';

const WORDS = {
  en: {
    signing: /^Signing/,
    queue: /^Interviews/,
    contractId: 'Signed contract id',
    seal: 'Seal with NOM-151',
    keptTitle: 'Sealed this session',
    saveEvidence: 'Save the evidence (.tsr)',
    saveDocument: 'Save the signed document',
    saveSealedPdf: 'Save the sealed PDF',
    unsaved: /^\s*Not saved yet: the signed document and the sealed PDF\. You can leave this screen and come back, but/,
    unsavedAll: /^\s*Not saved yet: the evidence \(\.tsr\), the signed document, and the sealed PDF\./,
    empty: 'No contract sealed yet. Enter the id of a signed contract and seal it.',
    oldEmpty: /No contract sealed yet in this session/,
    already:
      /^\s*demo-clean-pass-credito was already sealed in this session \(folio [0-9A-F]{32}, .+\)\. Sealing it again/,
    openInSigning: 'Open in Signing… demo-clean-pass-credito',
    back: 'Back to interview demo-clean-pass',
    verified: 'Verified',
  },
  es: {
    signing: /^Firma/,
    queue: /^Entrevistas/,
    contractId: 'Id del contrato firmado',
    seal: 'Sellar con NOM-151',
    keptTitle: 'Sellados en esta sesión',
    saveEvidence: 'Guardar la constancia de conservación (.tsr)',
    saveDocument: 'Guardar el documento firmado',
    saveSealedPdf: 'Guardar el PDF sellado',
    unsaved: /^\s*Sin guardar: el documento firmado y el PDF sellado\. Puedes salir de esta pantalla y volver, pero/,
    unsavedAll: /^\s*Sin guardar: la constancia \(\.tsr\), el documento firmado y el PDF sellado\./,
    empty: 'Aún no has sellado contratos. Escribe el id de un contrato firmado y séllalo.',
    oldEmpty: /Aún no se ha sellado ningún contrato en esta sesión/,
    already:
      /^\s*demo-clean-pass-credito ya se selló en esta sesión \(folio [0-9A-F]{32}, .+\)\. Si lo vuelves a sellar/,
    openInSigning: 'Abrir en Firma… demo-clean-pass-credito',
    back: 'Volver a la entrevista demo-clean-pass',
    verified: 'Verificada',
  },
} as const;

async function railTo(page: Page, name: RegExp) {
  await page.getByRole('link', { name }).first().click();
}

/** Seals a contract from the form; the folio it got (the result shown in full is the newest one). */
async function sealContract(page: Page, w: (typeof WORDS)['en' | 'es'], contractId: string, before?: string) {
  const seal = page.locator('section.signing-seal');
  await seal.getByLabel(w.contractId).fill(contractId);
  await seal.getByRole('button', { name: w.seal, exact: true }).click();
  const folio = seal.getByTestId('nom151-folio').first();
  if (before) await expect(folio).not.toHaveText(before, { timeout: 20_000 });
  await expect(folio).toHaveText(/^[0-9A-F]{32}$/, { timeout: 20_000 });
  return (await folio.textContent())!;
}

for (const language of ['en', 'es'] as const) {
  const w = WORDS[language];

  testOpeningTheApp(
    `a seal result outlives leaving Signing: folio, time and Save buttons, two contracts (${language})`,
    async ({ page, shell }) => {
      await mkdir(SHOTS, { recursive: true });
      await shell.ipc('settings.setPreferences', { language });
      await openApp(page, shell);
      await railTo(page, w.signing);
      const seal = page.locator('section.signing-seal');
      const first = await sealContract(page, w, 'demo-clean-pass-credito');
      // The evidence saved now; the other two files not.
      const [evidence] = await Promise.all([
        page.waitForEvent('download'),
        seal.getByRole('button', { name: w.saveEvidence }).click(),
      ]);
      expect(evidence.suggestedFilename()).toMatch(/constancia-nom151\.tsr$/);
      const second = await sealContract(page, w, 'demo-contracts-many-seguro', first);
      expect(second).not.toBe(first);

      // To the queue and back by the rail, as an officer checking something in an interview would.
      await railTo(page, w.queue);
      await expect(page).toHaveURL(/#\/interviews$/);
      await railTo(page, w.signing);
      await expect(page).toHaveURL(/#\/signing$/);

      // Both results are still there: neither folio is lost, and the screen does not claim that nothing was sealed.
      await expect(seal.getByText(second, { exact: true }).first()).toBeVisible();
      await expect(seal.getByText(first, { exact: true }).first()).toBeVisible();
      await expect(seal.getByText(w.oldEmpty)).toHaveCount(0);
      await expect(seal.getByText(w.empty)).toHaveCount(0);
      await expect(seal.getByRole('heading', { name: w.keptTitle })).toBeVisible();
      const items = seal.getByTestId('kept-seal');
      await expect(items).toHaveCount(2);
      // Newest first, each with its folio, time and Save buttons.
      await expect(items.nth(0).getByRole('heading', { level: 4 })).toHaveText('demo-contracts-many-seguro');
      await expect(items.nth(0).getByTestId('kept-folio')).toHaveText(second);
      await expect(items.nth(1).getByRole('heading', { level: 4 })).toHaveText('demo-clean-pass-credito');
      await expect(items.nth(1).getByTestId('kept-folio')).toHaveText(first);
      for (const item of [items.nth(0), items.nth(1)]) {
        await expect(item.getByText(w.verified, { exact: true }).first()).toBeVisible();
        await expect(item.locator('.nom-kept-facts')).toContainText(/20\d\d/);
        for (const name of [w.saveEvidence, w.saveDocument, w.saveSealedPdf])
          await expect(item.getByRole('button', { name })).toBeEnabled();
      }
      // The last one sealed in full, as right after sealing.
      await expect(items.nth(0).getByTestId('nom151-folio').first()).toHaveText(second);
      // What was never saved is said, on each.
      await expect(items.nth(0).getByTestId('kept-unsaved')).toHaveText(w.unsavedAll);
      await expect(items.nth(1).getByTestId('kept-unsaved')).toHaveText(w.unsaved);

      // Tall enough for the whole panel: the content scrolls inside the window, and a shot shows only what is in view.
      await page.setViewportSize({ width: 1280, height: 2600 });
      await seal.screenshot({ path: `${SHOTS}/kept-two-${language}.png` });
      await page.setViewportSize({ width: 1280, height: 820 });
      await expectAxeClean(page);

      // The files of the first seal still save after the round trip (main kept them; nothing sealed again).
      const [sealedPdf] = await Promise.all([
        page.waitForEvent('download'),
        items.nth(1).getByRole('button', { name: w.saveSealedPdf }).click(),
      ]);
      expect(sealedPdf.suggestedFilename()).toMatch(/sellado-nom151\.pdf$/);
      const [contract] = await Promise.all([
        page.waitForEvent('download'),
        items.nth(1).getByRole('button', { name: w.saveDocument }).click(),
      ]);
      expect(contract.suggestedFilename()).toBe('contrato-demo-clean-pass-credito.pdf');
      await expect(items.nth(1).getByTestId('kept-unsaved')).toHaveCount(0);
      await expect(items.nth(1).getByTestId('kept-saved')).toBeVisible();

      // The same contract again: the screen says it was sealed already, before a second constancia is asked for.
      await seal.getByLabel(w.contractId).fill('demo-clean-pass-credito');
      await expect(seal.getByTestId('already-sealed')).toHaveText(w.already);
      await expect(seal.getByTestId('already-sealed')).toContainText(first);
      await page.setViewportSize({ width: 1280, height: 2600 });
      await seal.screenshot({ path: `${SHOTS}/kept-two-saved-${language}.png` });
      await page.setViewportSize({ width: 1280, height: 820 });
    },
  );

  testOpeningTheApp(
    `from an interview's contract, Signing opens with the way back to that interview (${language})`,
    async ({ page, shell }) => {
      await mkdir(SHOTS, { recursive: true });
      await shell.ipc('settings.setPreferences', { language });
      await openApp(page, shell);
      await openInterview(page, shell, 'demo-clean-pass');
      await panelsSettled(page);
      const open = page.getByRole('button', { name: w.openInSigning });
      await open.scrollIntoViewIfNeeded();
      await page.locator('.contract-list').screenshot({ path: `${SHOTS}/ws-open-in-signing-${language}.png` });
      await open.click();
      await expect(page).toHaveURL(/#\/signing\?contract=demo-clean-pass-credito$/);
      await expect(page.getByLabel(w.contractId)).toHaveValue('demo-clean-pass-credito');
      const back = page.getByRole('link', { name: w.back, exact: true });
      await expect(back).toBeVisible();
      const seal = page.locator('section.signing-seal');
      await seal.getByRole('button', { name: w.seal, exact: true }).click();
      await expect(seal.getByTestId('kept-folio')).toHaveText(/^[0-9A-F]{32}$/, { timeout: 20_000 });
      await page.screenshot({ path: `${SHOTS}/signing-from-interview-${language}.png` });

      await back.click();
      await expect(page).toHaveURL(/#\/interviews\/demo-clean-pass$/);
      await expect(page.getByTestId('interview-id')).toHaveText('demo-clean-pass');

      // Opened again from the interview: the seal made is there, and the screen says so before a second one.
      await page.getByRole('button', { name: w.openInSigning }).click();
      await expect(seal.getByTestId('kept-seal')).toHaveCount(1);
      await expect(seal.getByTestId('already-sealed')).toHaveText(w.already);
      // Opened from the rail, there is no interview to go back to.
      await goTo(page, '/interviews');
      await railTo(page, w.signing);
      await expect(page).toHaveURL(/#\/signing$/);
      await expect(seal.getByTestId('kept-seal')).toHaveCount(1);
      await expect(page.getByRole('link', { name: w.back })).toHaveCount(0);
    },
  );
}

testOpeningTheApp(
  'a kept seal whose files main no longer keeps says so instead of asking to save them',
  async ({ page, shell }) => {
    await openApp(page, shell);
    await railTo(page, WORDS.en.signing);
    await expect(page.locator('section.signing-seal').getByText(WORDS.en.empty, { exact: true })).toBeVisible();
    const folio = await sealContract(page, WORDS.en, 'demo-clean-pass-credito');
    // Main keeps the files of its latest results only: twenty signatures later, the seal's are gone.
    for (let i = 0; i < 20; i += 1) await shell.ipc('nom151.signString', { text: `later ${i}` });
    const item = page.getByTestId('kept-seal');
    await item.getByRole('button', { name: WORDS.en.saveEvidence }).click();
    await expect(item.locator('.panel-error')).toContainText('no longer available');
    await expect(item.getByTestId('kept-gone')).toContainText('The app no longer keeps these files');
    await expect(item.getByTestId('kept-unsaved')).toHaveCount(0);
    await expect(item.getByTestId('kept-folio')).toHaveText(folio);
  },
);

testOpeningTheApp(
  'a signed text and its evidence outlive leaving Signing; a file that is not text is refused at its button (es)',
  async ({ page, shell }) => {
    await mkdir(SHOTS, { recursive: true });
    await shell.ipc('settings.setPreferences', { language: 'es' });
    await openApp(page, shell);
    await railTo(page, /^Firma/);
    const sign = page.locator('section.signing-string');
    // A picture renamed .txt: refused before anything is read whole or sent, naming the file.
    await sign.getByLabel('Cargar texto desde un archivo…').setInputFiles({
      name: 'foto.txt',
      mimeType: 'text/plain',
      buffer: Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]), Buffer.alloc(64, 1)]),
    });
    await expect(sign.getByTestId('sign-file-problem')).toContainText('foto.txt');
    await expect(sign.getByLabel('Texto a firmar')).toHaveValue('');

    await sign.getByLabel('Texto a firmar').fill('Acepto los términos del crédito');
    await sign.getByRole('button', { name: 'Firmar con NOM-151' }).click();
    const folio = sign.getByTestId('nom151-folio').first();
    await expect(folio).toHaveText(/^[0-9A-F]{32}$/, { timeout: 20_000 });
    const signed = (await folio.textContent())!;
    await railTo(page, /^Entrevistas/);
    await railTo(page, /^Firma/);
    await expect(sign.getByLabel('Texto a firmar')).toHaveValue('Acepto los términos del crédito');
    await expect(sign.getByTestId('nom151-folio').first()).toHaveText(signed);
    await sign.screenshot({ path: `${SHOTS}/signed-text-kept-es.png` });
  },
);
