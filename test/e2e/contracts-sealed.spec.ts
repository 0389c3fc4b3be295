import { mkdir } from 'node:fs/promises';
import { expect, openApp, testOpeningTheApp } from './fixtures';
import { expectAxeClean, openInterview, panelsSettled } from './review-helpers';

/**
 * UX review 20, L7. The contracts panel named each contract by its id alone: an officer could not tell which already
 * had its constancia. Each contract now says whether it was sealed, with its folio and when (words and an icon): not
 * yet, then sealed on Signing, and sealed when the officer comes back. In English and in Spanish.
 */

const SHOTS = '.tmp/uxfix-contracts';
const CONTRACT = 'demo-clean-pass-credito';

const WORDS = {
  en: {
    notYet: 'Not sealed yet',
    sealed: /^\s*Sealed · folio ([0-9A-F]{32}) · .*20\d\d.*$/,
    openInSigning: `Open in Signing… ${CONTRACT}`,
    seal: 'Seal with NOM-151',
    back: 'Back to interview demo-clean-pass',
  },
  es: {
    notYet: 'Aún sin sellar',
    sealed: /^\s*Sellado · folio ([0-9A-F]{32}) · .*20\d\d.*$/,
    openInSigning: `Abrir en Firma… ${CONTRACT}`,
    seal: 'Sellar con NOM-151',
    back: 'Volver a la entrevista demo-clean-pass',
  },
} as const;

for (const language of ['en', 'es'] as const) {
  const w = WORDS[language];

  testOpeningTheApp(
    `each contract says whether it was sealed, and its folio once sealed on Signing (${language})`,
    async ({ page, shell }) => {
      await mkdir(SHOTS, { recursive: true });
      await shell.ipc('settings.setPreferences', { language });
      await openApp(page, shell);
      await openInterview(page, shell, 'demo-clean-pass');
      await panelsSettled(page);

      const row = page.locator('.contract-list li').filter({ hasText: CONTRACT });
      await expect(row).toHaveCount(1);
      await expect(row.getByTestId('contract-seal')).toHaveText(new RegExp(`^\\s*${w.notYet}$`));
      // Every contract listed says so, none sealed yet.
      const all = page.locator('.contract-list').getByTestId('contract-seal');
      await expect(all).toHaveCount(await page.locator('.contract-list li').count());
      for (const status of await all.all()) await expect(status).toHaveText(new RegExp(`^\\s*${w.notYet}$`));
      await row.scrollIntoViewIfNeeded();
      await page.locator('.contract-list').screenshot({ path: `${SHOTS}/contracts-not-sealed-${language}.png` });

      // Sealed on Signing, opened from the contract, then back to the interview.
      await row.getByRole('button', { name: w.openInSigning }).click();
      await expect(page).toHaveURL(new RegExp(`#/signing\\?contract=${CONTRACT}$`));
      const seal = page.locator('section.signing-seal');
      await seal.getByRole('button', { name: w.seal, exact: true }).click();
      const folio = seal.getByTestId('kept-folio');
      await expect(folio).toHaveText(/^[0-9A-F]{32}$/, { timeout: 20_000 });
      const sealedFolio = (await folio.textContent())!;
      await page.getByRole('link', { name: w.back, exact: true }).click();
      await expect(page).toHaveURL(/#\/interviews\/demo-clean-pass$/);
      await panelsSettled(page);

      // At once, not after the cached contracts ran stale.
      const status = row.getByTestId('contract-seal');
      await expect(status).toHaveText(w.sealed, { timeout: 5_000 });
      expect((await status.textContent())!.match(w.sealed)![1]).toBe(sealedFolio);
      // An icon besides the words, not colour alone; the way to Signing stays.
      await expect(status.locator('svg')).toHaveCount(1);
      await expect(row.getByRole('button', { name: w.openInSigning })).toBeVisible();
      // The other contracts were not sealed.
      const others = page.locator('.contract-list li').filter({ hasNotText: CONTRACT }).getByTestId('contract-seal');
      for (const other of await others.all()) await expect(other).toHaveText(new RegExp(`^\\s*${w.notYet}$`));
      await row.scrollIntoViewIfNeeded();
      await page.locator('.contract-list').screenshot({ path: `${SHOTS}/contracts-sealed-${language}.png` });
      await page.screenshot({ path: `${SHOTS}/workspace-contracts-sealed-${language}.png`, fullPage: true });
      await expectAxeClean(page);
    },
  );
}
