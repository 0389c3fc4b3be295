import { mkdirSync } from 'node:fs';
import { expect, test } from './fixtures';
import { goTo, openInterview, panelsSettled } from './review-helpers';

/**
 * Every screen in English and es-MX, light and dark, at 1024 and 1280 px, as PNGs in out/screens/all (git-ignored)
 * for people to look at. Only on request, it proves nothing by itself: OMNI_SCREENS=1 npx playwright test test/e2e/screens.spec.ts
 */
const DIR = 'out/screens/all';

test.skip(!process.env.OMNI_SCREENS, 'screenshots only on request (OMNI_SCREENS=1)');

for (const language of ['en', 'es'] as const)
  for (const theme of ['light', 'dark'] as const)
    for (const width of [1024, 1280])
      test(`screens ${language} ${theme} ${width}`, async ({ page, shell }) => {
        test.setTimeout(180_000);
        mkdirSync(DIR, { recursive: true });
        const shot = (name: string) => page.screenshot({ path: `${DIR}/${language}-${theme}-${width}-${name}.png` });
        await shell.ipc('settings.setPreferences', { language, theme });
        await page.setViewportSize({ width, height: 800 });
        await shell.ipc('queue.addDemoSeeds', {});
        await page.reload();
        const settled = () => expect(page.locator('.skeleton, [aria-busy="true"]')).toHaveCount(0, { timeout: 15_000 });

        await goTo(page, '/interviews');
        await expect(page.getByTestId('queue-row').first()).toBeVisible();
        await shot('queue');

        await openInterview(page, shell, 'demo-fraud-high');
        await panelsSettled(page);
        await shot('interview-top');
        await page.getByTestId('crossdoc-table').scrollIntoViewIfNeeded();
        await shot('interview-crossdoc');
        const notes = page.locator('textarea[id^="notes-"]');
        await notes.fill(
          language === 'es' ? 'Identificación legible; el rostro coincide.' : 'ID legible; the face matches.',
        );
        await page.locator('form.draft-form').first().getByRole('button').click();
        await expect(page.getByTestId('sent-history').getByRole('listitem')).toHaveCount(1);
        await notes.scrollIntoViewIfNeeded();
        await shot('interview-notes');
        await page.locator('#decision button').nth(1).click();
        await expect(page.getByRole('dialog')).toBeVisible();
        await shot('decision-dialog');
        await page.keyboard.press('Escape');
        await page.locator('main#main').focus();
        await page.keyboard.press('?');
        await shot('shortcut-sheet');
        await page.keyboard.press('Escape');

        await openInterview(page, shell, 'demo-clean-pass');
        await panelsSettled(page);
        await page.locator('.contract-actions button').first().click();
        await expect(page.getByTestId('pdf-page')).toHaveText(/\d/);
        await page.getByTestId('pdf-viewer').scrollIntoViewIfNeeded();
        await page.waitForTimeout(1500);
        await shot('contract-pdf');

        for (const area of ['signing', 'validation', 'capture', 'api-keys', 'settings']) {
          await goTo(page, `/${area}`);
          await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
          await settled();
          await shot(area);
        }
      });
