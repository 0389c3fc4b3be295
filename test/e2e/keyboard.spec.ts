import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { notesAtService } from './reason-helpers';
import { SHOTS, expectAxeClean, goTo, openInterview, panelsSettled, videoState } from './review-helpers';

/** Issue #35: the keys an analyst's hand needs, in the queue and the workspace, and no Enter that changes a decision. */

const selectedRow = (page: Page) => page.locator('[data-testid="queue-row"][aria-current="true"] a').first();

test('queue: Esc leaves the search with its text kept, so j moves the selection; Enter opens the only match', async ({
  page,
  shell,
}) => {
  await shell.ipc('queue.addDemoSeeds', {});
  await goTo(page, '/interviews');
  const rows = page.getByTestId('queue-row');
  await expect(rows.first()).toBeVisible();
  const search = page.getByRole('searchbox', { name: 'Search' });

  await page.locator('main#main').press('/');
  await expect(search).toBeFocused();
  await page.keyboard.type('demo-face');
  await expect(rows).toHaveCount(5);
  const first = await selectedRow(page).textContent();
  await page.keyboard.press('Escape');
  await expect(search).not.toBeFocused();
  // The browser's own Esc would have emptied the search; the matches stay listed.
  await expect(search).toHaveValue('demo-face');
  await page.keyboard.press('j');
  await expect(search).toHaveValue('demo-face');
  await expect(selectedRow(page)).not.toHaveText(first!);
  const second = await selectedRow(page).textContent();
  await expect(rows.nth(1).locator('a').first()).toHaveText(second!);
  await expectAxeClean(page);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('interview-id')).toHaveText(second!);

  // Enter straight after typing: the search is asked when typing pauses, and the one interview it finds opens.
  await goTo(page, '/interviews');
  await page.locator('main#main').press('/');
  await expect(search).toBeFocused();
  await page.keyboard.press('Control+a');
  await page.keyboard.type('fraud-high');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('interview-id')).toHaveText('demo-fraud-high');

  // Several matches: Enter goes to the rows, as Esc does, and opens nothing.
  await goTo(page, '/interviews');
  await page.locator('main#main').press('/');
  await page.keyboard.press('Control+a');
  await page.keyboard.type('demo-face');
  await page.keyboard.press('Enter');
  await expect(search).not.toBeFocused();
  await expect(page).toHaveURL(/#\/interviews$/);
  await expect(rows).toHaveCount(5);
});

test('workspace: r and c open Reject and Request new capture at the reason, w goes to the notes, all listed by ?', async ({
  page,
  shell,
}) => {
  await openInterview(page, shell, 'demo-clean-pass');
  await panelsSettled(page);
  await page.locator('main#main').focus();

  await page.keyboard.press('r');
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Decision: Reject' })).toBeVisible();
  await expect(dialog.getByLabel('Reason (required)')).toBeFocused();
  // Enter in the reason is a new line: it records nothing.
  await page.keyboard.type('Selfie is a photo');
  await page.keyboard.press('Enter');
  await expect(dialog.getByTestId('decision-recorded')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  await page.keyboard.press('c');
  await expect(dialog.getByRole('heading', { name: 'Decision: Request new capture' })).toBeVisible();
  await expect(dialog.getByLabel('Reason (required)')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  // From wherever the analyst was reading.
  await page.getByRole('heading', { name: 'Cross-document comparison' }).click();
  await page.keyboard.press('w');
  const notes = page.getByLabel('Conference notes');
  await expect(notes).toBeFocused();
  await expect(notes).toBeInViewport();
  await page.keyboard.type('ID legible');
  await expect(notes).toHaveValue('ID legible');
  await page.keyboard.press('Escape');

  await page.locator('main#main').focus();
  await page.keyboard.press('?');
  const sheet = page.getByRole('dialog');
  for (const [key, what] of [
    ['r', 'Reject (asks for the reason)'],
    ['c', 'Request new capture (asks for the reason)'],
    ['w', 'Write in the conference notes'],
    ['d', 'Go to the decision'],
  ] as const)
    await expect(sheet.getByRole('row').filter({ hasText: what }).locator('kbd')).toHaveText(key);
  // The keys of a text field are listed too, since nothing on the screen shows them.
  await expect(
    sheet.getByRole('row').filter({ hasText: "In the notes or a decision's reason: send it" }),
  ).toContainText('Ctrl+Enter');
  await page.screenshot({ path: `${SHOTS}/keyboard-sheet.png` });
  await expectAxeClean(page);
  await page.keyboard.press('Escape');

  // The same sheet in Spanish.
  await shell.ipc('settings.setPreferences', { language: 'es' });
  await page.reload();
  await panelsSettled(page);
  await page.locator('main#main').focus();
  await page.keyboard.press('?');
  await expect(
    page.getByRole('dialog').getByRole('row').filter({ hasText: 'Rechazar (pide el motivo)' }).locator('kbd'),
  ).toHaveText('r');
  await expect(
    page.getByRole('dialog').getByRole('row').filter({ hasText: 'Escribir en las notas de la videollamada' }),
  ).toBeVisible();
});

test('a decision already sent: the dialog starts on "Keep the decision", so Enter keeps it', async ({
  page,
  shell,
}) => {
  await openInterview(page, shell, 'demo-clean-pass');
  await panelsSettled(page);
  await page.getByRole('button', { name: 'Approve', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Reason (required)').fill('Everything matches the ID.');
  await dialog.getByRole('button', { name: 'Record decision' }).click();
  await expect(dialog.getByTestId('decision-recorded')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  await page.locator('main#main').focus();
  for (const key of ['r', 'c']) {
    await page.keyboard.press(key);
    await expect(dialog.getByTestId('already-decided')).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Keep the decision' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(dialog).toHaveCount(0);
  }
  const overview = await shell.ipc<{ lastDecision: { decision: string } }>('interview.overview', {
    interviewId: 'demo-clean-pass',
  });
  expect(overview.lastDecision.decision).toBe('approve');
});

test('a whole review without one Tab: find, open, play, write and send a note, decide with a code, go on', async ({
  page,
  shell,
}) => {
  await shell.ipc('queue.addDemoSeeds', {});
  await goTo(page, '/interviews');
  await expect(page.getByTestId('queue-row').first()).toBeVisible();
  // Every Tab the page sees is counted: the proof is that there is none.
  await page.evaluate(() => {
    const counted = window as unknown as { tabs: number };
    counted.tabs = 0;
    window.addEventListener('keydown', (e) => (counted.tabs += e.key === 'Tab' ? 1 : 0), true);
  });

  await page.keyboard.press('/');
  await page.keyboard.type('clean-pass');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('interview-id')).toHaveText('demo-clean-pass');
  await panelsSettled(page);

  await page.keyboard.press('Space');
  await expect.poll(async () => (await videoState(page)).paused).toBe(false);
  await page.keyboard.press('Space');
  await expect.poll(async () => (await videoState(page)).paused).toBe(true);

  // The note goes out with Ctrl+Enter; Enter alone is a new line in it.
  await page.keyboard.press('w');
  await expect(page.getByLabel('Conference notes')).toBeFocused();
  await page.keyboard.type('ID legible.');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Selfie matches the document.');
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('notes-status')).toContainText('Sent');
  await expect(page.getByLabel('Conference notes')).toHaveValue('');
  expect(await notesAtService(shell, 'demo-clean-pass')).toContain('ID legible.\nSelfie matches the document.');

  // Esc leaves the notes for the screen's keys: d brings the hand to Approve; the dialog starts on the reason, and
  // Alt+↓ chooses the code from there.
  await page.keyboard.press('Escape');
  await expect(page.getByLabel('Conference notes')).not.toBeFocused();
  await page.keyboard.press('d');
  await expect(page.getByRole('button', { name: 'Approve', exact: true })).toBeFocused();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Decision: Approve' })).toBeVisible();
  await expect(dialog.getByLabel('Reason (required)')).toBeFocused();
  await page.keyboard.press('Alt+ArrowDown');
  await expect(dialog.getByRole('radio', { name: 'Documents consistent' })).toBeChecked();
  await page.keyboard.press('Alt+ArrowDown');
  await expect(dialog.getByRole('radio', { name: 'Verified manually' })).toBeChecked();
  await expect(dialog.getByTestId('reason-code-chosen')).toHaveText('Reason code: Verified manually');
  await page.keyboard.type('Checked the ID against the selfie by hand.');
  await page.screenshot({ path: `${SHOTS}/keyboard-decision-dialog.png` });
  await expectAxeClean(page);
  await page.keyboard.press('Control+Enter');
  await expect(dialog.getByTestId('decision-recorded')).toBeVisible();
  // Opened from a search with one match, it has no next one in its view: back to the queue for the next.
  await expect(dialog).toContainText('the last interview of the queue as you filtered it');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await page.keyboard.press('g');
  await page.keyboard.press('i');
  await expect(page).toHaveURL(/#\/interviews$/);
  await page.keyboard.press('/');
  await page.keyboard.press('Control+a');
  await page.keyboard.type('fraud-high');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('interview-id')).toHaveText('demo-fraud-high');

  expect(await page.evaluate(() => (window as unknown as { tabs: number }).tabs)).toBe(0);
  const overview = await shell.ipc<{ lastDecision: { decision: string; reasonCode?: string } }>('interview.overview', {
    interviewId: 'demo-clean-pass',
  });
  expect(overview.lastDecision).toMatchObject({ decision: 'approve', reasonCode: 'verified_manually' });
  const sent = await notesAtService(shell, 'demo-clean-pass');
  expect(
    sent.some((n) => n.includes('Verified manually') && n.includes('Checked the ID against the selfie by hand.')),
  ).toBe(true);
});
