import { expect, test } from './fixtures';
import { SHOTS, expectAxeClean, openInterview, panelsSettled } from './review-helpers';

/**
 * The database first, the service second: a decision is recorded before its note goes; when the service fails, the
 * decision stands, the screen says its note has not arrived, and sending it again delivers it once.
 */
test('a decision whose note the service refused: recorded, said so, and sent again once', async ({ page, shell }) => {
  const notes = async () =>
    ((await (await fetch(`${shell.demoUrl}/__demo/interviews/demo-clean-pass`)).json()) as { notes: unknown[] }).notes
      .length;
  await openInterview(page, shell, 'demo-clean-pass');
  await panelsSettled(page);
  await shell.demo('faults', { route: 'addConferenceNotes', kind: 'status', status: 500 });
  await page.getByRole('button', { name: 'Reject', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Reason (required)').fill('The selfie is a photo of a screen.');
  await dialog.getByRole('button', { name: 'Record decision' }).click();
  await expect(dialog.getByRole('alert')).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).first().click();

  // Recorded, and the bar says the note has not arrived.
  await expect(page.getByTestId('last-decision')).toContainText('Reject');
  const unsent = page.getByTestId('decision-note-unsent');
  await expect(unsent).toContainText('has not reached the service yet');
  expect(await notes()).toBe(0);
  await unsent.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/decision-note-unsent-en.png` });
  await expectAxeClean(page);
  await shell.ipc('settings.setPreferences', { language: 'es' });
  await page.reload();
  await expect(unsent).toContainText('aún no llega al servicio');
  await unsent.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/decision-note-unsent-es.png` });

  await unsent.getByRole('button', { name: 'Volver a enviar la nota' }).click();
  await expect(unsent).toHaveCount(0);
  expect(await notes()).toBe(1);
  const trail = await shell.ipc<{ entries: { action: string }[] }>('interview.audit', {
    interviewId: 'demo-clean-pass',
  });
  expect(trail.entries.filter((e) => e.action === 'decided')).toHaveLength(1);
});
