import { expect, test } from './fixtures';
import { countOf, decideWithCode, notesAtService, SHOTS } from './reason-helpers';
import { goTo, openInterview, panelsSettled } from './review-helpers';

/** Reason codes on a team database: the list is among the Team screen's rules, not in Settings. */
test.use({ recordEngine: 'team' });

test('the codes are among the Team screen’s rules; a relabelled code is chosen, sent and counted', async ({
  page,
  shell,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await goTo(page, '/team');
  const editor = page.getByTestId('reason-codes-editor');
  const approve = editor.locator('fieldset[data-kind="approve"]');
  await approve.getByRole('textbox', { name: 'English label (verified_manually)' }).fill('Verified by a call');
  await approve.getByRole('textbox', { name: 'Spanish label (verified_manually)' }).fill('Verificado por llamada');
  await editor.getByRole('button', { name: 'Save reason codes' }).click();
  await expect(editor.getByRole('status')).toHaveText('Reason codes saved.');
  await expect(page.getByTestId('reason-codes-in-settings')).toHaveCount(0);
  await editor.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/reasons-team-rules-en.png` });

  // Settings keeps no second copy of the list on a team database.
  await goTo(page, '/settings');
  await expect(page.getByTestId('team-database')).toBeVisible();
  await expect(page.getByTestId('reason-codes-editor')).toHaveCount(0);

  await openInterview(page, shell, 'demo-clean-pass');
  await panelsSettled(page);
  await expect(page.getByTestId('case-summary').locator('[data-part="holder"]')).toContainText('held by you');
  await decideWithCode(page, 'Approve', 'Verified by a call', 'Called the applicant back.', 'Record decision');
  const notes = await notesAtService(shell, 'demo-clean-pass');
  expect(notes.at(-1)).toContain('Reason code: verified_manually (Verified by a call)');

  await goTo(page, '/team');
  await expect(countOf(page, 'verified_manually')).toHaveText('1');
});
