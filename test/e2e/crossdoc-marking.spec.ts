import { expect, openApp, testOpeningTheApp as test } from './fixtures';
import { expectAxeClean, openInterview, panelsSettled } from './review-helpers';

/** Issue #35: a cross-document mismatch shows where the values differ, not only that they do. */

const WORDS = {
  en: {
    name: 'Differs: “ORTEGA” (Front of ID), “ORTIZ” (Back of ID).',
    date: 'Differs in the month and day. Day and month are swapped.',
  },
  es: {
    name: 'Difiere: “ORTEGA” (Frente de la identificación), “ORTIZ” (Reverso de la identificación).',
    date: 'Difiere en el mes y el día. El día y el mes están invertidos.',
  },
};

for (const language of ['en', 'es'] as const)
  for (const width of [1280, 1024])
    test(`the demo's mismatched name and date are marked letter by letter and said in words (${language}, ${width} px)`, async ({
      page,
      shell,
    }) => {
      await page.setViewportSize({ width, height: 800 });
      await shell.ipc('settings.setPreferences', { language });
      await openApp(page, shell);
      await openInterview(page, shell, 'demo-fraud-high');
      await panelsSettled(page);
      const table = page.getByTestId('crossdoc-table');
      const name = table.locator('tbody').filter({ hasText: 'BRUNO SALINAS' });
      // The values stay whole to read and copy; only the differing letters are marked.
      await expect(name.locator('dd').nth(0)).toHaveText('BRUNO SALINAS ORTEGA');
      await expect(name.locator('dd').nth(1)).toHaveText('BRUNO SALINAS ORTIZ');
      await expect(name.locator('mark')).toHaveText(['EGA', 'IZ']);
      await expect(name.getByTestId('crossdoc-diff')).toHaveText(WORDS[language].name);

      const date = table.locator('tbody').filter({ hasText: '1983-02-11' });
      await expect(date.locator('mark')).toHaveText(['02', '11', '11', '02']);
      await expect(date.getByTestId('crossdoc-diff')).toHaveText(WORDS[language].date);
      // A field that matched is not marked.
      await expect(table.locator('tbody').filter({ hasText: 'IDMEX1180934417' }).locator('mark')).toHaveCount(0);
      await expectAxeClean(page);
      await table.screenshot({ path: `.tmp/screenshots/crossdoc/crossdoc-${language}-${width}.png` });
    });
