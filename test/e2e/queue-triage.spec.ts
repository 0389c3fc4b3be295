import type { Page } from '@playwright/test';
import { expect, test, openApp, testOpeningTheApp } from './fixtures';
import { expectAxeClean, goTo, openInterview, panelsSettled } from './review-helpers';

/** Issue #35: the queue as a triage list, dense enough to see a morning's work at once. */

/** Rows wholly inside the window, as the analyst sees them without scrolling. */
const rowsInView = (page: Page) =>
  page.getByTestId('queue-row').evaluateAll(
    (rows) =>
      rows.filter((r) => {
        const box = r.getBoundingClientRect();
        return box.top >= 0 && box.bottom <= window.innerHeight;
      }).length,
  );

/** Ids whose text the layout put on more than one line (a hyphen is where a browser would break them). */
const idsBroken = (page: Page) =>
  page
    .getByTestId('queue-row')
    .locator('td.queue-id a')
    .evaluateAll((links) =>
      links
        .filter((a) => {
          const range = document.createRange();
          range.selectNodeContents(a);
          return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1;
        })
        .map((a) => a.textContent),
    );

for (const language of ['en', 'es'] as const)
  for (const width of [1280, 1024])
    testOpeningTheApp(
      `${language}, ${width} x 800: one line a row, ids whole, at least 15 rows in view, no column cut off`,
      async ({ page, shell }) => {
        await page.setViewportSize({ width, height: 800 });
        await shell.ipc('settings.setPreferences', { language });
        // One without a session token, whose row also says so.
        await shell.ipc('queue.add', { items: [{ interviewId: 'worklist-no-token-07' }] });
        await shell.ipc('queue.addDemoSeeds', {});
        await openApp(page, shell);
        await goTo(page, '/interviews');
        const rows = page.getByTestId('queue-row');
        await expect(rows).toHaveCount(22);
        // Adding waits behind its button while the queue has interviews.
        await expect(page.getByTestId('queue-add-toggle')).toHaveAttribute('aria-expanded', 'false');
        await expect(
          page.getByLabel(language === 'es' ? 'Id de entrevista o enlace' : 'Interview id or link'),
        ).toHaveCount(0);

        expect(await rowsInView(page)).toBeGreaterThanOrEqual(15);
        const heights = await rows.evaluateAll((all) => all.map((r) => r.getBoundingClientRect().height));
        // One line: every row as tall as the shortest, and that is a single line of text with its padding.
        expect(Math.max(...heights) - Math.min(...heights)).toBeLessThan(2);
        expect(Math.max(...heights)).toBeLessThan(36);
        expect(await idsBroken(page)).toEqual([]);
        const scroll = page.locator('.queue-table-scroll');
        expect(await scroll.evaluate((s) => s.scrollWidth - s.clientWidth)).toBeLessThanOrEqual(0);
        await expect(rows.filter({ hasText: 'worklist-no-token-07' })).toContainText(
          language === 'es' ? 'Sin token' : 'No token',
        );
        await expectAxeClean(page);
        await page.screenshot({ path: `.tmp/screenshots/queue-triage/queue-${language}-${width}.png` });
      },
    );

test('"Add interviews" opens the panel at its id field and closes it again; an empty queue opens it by itself', async ({
  page,
  shell,
}) => {
  await goTo(page, '/interviews');
  const toggle = page.getByRole('button', { name: 'Add interviews' });
  const idField = page.getByLabel('Interview id or link');
  // A first run on the demo opens onto its interviews, the ways to add behind their button.
  await expect(page.getByTestId('queue-row').filter({ hasText: 'demo-clean-pass' })).toBeVisible();
  // Risk is read when an interview is opened: the dash in its column is said where the rows are counted.
  await expect(page.locator('.queue-summary')).toContainText('— in Risk: checks not read yet');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(idField).toHaveCount(0);
  // Emptied (Settings, Reset demo data), nothing is left to triage: the ways to add are what the screen offers.
  await shell.ipc('settings.resetDemoData', {});
  await page.reload();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(idField).toBeVisible();
  await idField.fill('worklist-0001');
  await page.getByRole('button', { name: 'Add to queue' }).click();
  await expect(page.getByTestId('queue-row')).toHaveCount(1);
  // The first row does not close it under the analyst's hands.
  await expect(idField).toBeVisible();

  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(idField).toHaveCount(0);
  await toggle.click();
  await expect(idField).toBeFocused();
  await idField.fill('worklist-0002');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('queue-row')).toHaveCount(2);
  await expectAxeClean(page);

  // Back on the screen with interviews in the queue: the rows have the width.
  await goTo(page, '/settings');
  await goTo(page, '/interviews');
  await expect(page.getByTestId('queue-row')).toHaveCount(2);
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
});

test('sorted by risk, highest first, and by waiting time, in the risk column the analyst reads', async ({
  page,
  shell,
}) => {
  // Each read of an interview's checks files it under their risk; the last one read is the newest high risk.
  for (const id of ['demo-clean-pass', 'demo-fraud-high']) {
    await openInterview(page, shell, id);
    await panelsSettled(page);
  }
  await goTo(page, '/interviews');
  const rows = page.getByTestId('queue-row');
  // Waiting longest first is the queue's first order (the demo interviews came in together: by id among them).
  await expect(rows.first()).toContainText('demo-attempts-exhausted');
  const sort = page.getByLabel('Sort by');
  await sort.selectOption({ label: 'Risk (highest first)' });
  await expect(rows.nth(0)).toContainText('demo-fraud-high');
  await expect(rows.nth(0)).toContainText('High risk');
  await expect(rows.nth(1)).toContainText('demo-clean-pass');
  await expect(rows.nth(1)).toContainText('Low risk');
  // Never read: after every level, longest waiting first.
  await expect(rows.nth(2)).not.toContainText('risk');
  await expectAxeClean(page);
  await page.screenshot({ path: '.tmp/screenshots/queue-triage/queue-by-risk.png' });

  await sort.selectOption({ label: 'Waiting time (longest first)' });
  await expect(rows.nth(0)).toContainText('demo-attempts-exhausted');
});
