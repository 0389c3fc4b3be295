import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { goTo, openInterview, panelsSettled } from './review-helpers';

/** Issue #28: the review screens as an analyst who lives in them all day. */

async function recordDecision(page: Page, button: string, reason: string) {
  await page.getByRole('button', { name: button, exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Reason (required)').fill(reason);
  await dialog.getByRole('button', { name: 'Record decision' }).click();
  await expect(dialog.getByTestId('decision-recorded')).toBeVisible();
  return dialog;
}

test('the decision dialog starts on the reason, and a screen change draws no frame round the screen', async ({ page, shell }) => {
  await openInterview(page, shell, 'demo-clean-pass');
  await panelsSettled(page);
  await page.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(page.getByRole('dialog').getByLabel('Reason (required)')).toBeFocused();
  await page.keyboard.press('Escape');

  // A change of screen by keyboard moves focus to the content: it may not draw the focus ring round all of it.
  await page.locator('body').press('g');
  await page.keyboard.press('s');
  await expect(page).toHaveURL(/#\/signing/);
  await expect(page.locator('main#main')).toBeFocused();
  expect(await page.locator('main#main').evaluate((m) => getComputedStyle(m).outlineStyle)).toBe('none');
});

test('after a decision the next interview is one key away, and a second decision asks first', async ({ page, shell }) => {
  await openInterview(page, shell, 'demo-clean-pass');
  await panelsSettled(page);
  const dialog = await recordDecision(page, 'Approve', 'Everything matches the ID.');
  // Focus waits on "Next interview": Enter goes on.
  const next = dialog.getByRole('button', { name: 'Next interview' });
  await expect(next).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('interview-id')).not.toHaveText('demo-clean-pass');
  await expect(page.getByTestId('moved-on')).toContainText('demo-clean-pass');

  // Back on the decided one: Reject does not go out without a word.
  await goTo(page, '/interviews/demo-clean-pass');
  await expect(page.getByTestId('last-decision')).toContainText('Approve');
  await page.getByRole('button', { name: 'Reject', exact: true }).click();
  const ask = page.getByRole('dialog');
  await expect(ask.getByTestId('already-decided')).toContainText('already decided');
  await expect(ask.getByRole('button', { name: 'Change the decision' })).toBeFocused();
  await ask.getByRole('button', { name: 'Keep the decision' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  const overview = await shell.ipc<{ lastDecision: { decision: string } }>('interview.overview', { interviewId: 'demo-clean-pass' });
  expect(overview.lastDecision.decision).toBe('approve');

  await page.getByRole('button', { name: 'Reject', exact: true }).click();
  await page.getByRole('button', { name: 'Change the decision' }).click();
  await expect(page.getByRole('dialog').getByLabel('Reason (required)')).toBeFocused();
  await page.keyboard.type('Second look: the selfie is a photo of a screen.');
  await page.getByRole('dialog').getByRole('button', { name: 'Record decision' }).click();
  await expect(page.getByRole('dialog').getByTestId('decision-recorded')).toContainText('Reject');
});

test('with "open the next interview at once" on, a decision goes on by itself', async ({ page, shell }) => {
  await openInterview(page, shell, 'demo-clean-pass');
  await panelsSettled(page);
  const dialog = await recordDecision(page, 'Request new capture', 'The selfie is blurred.');
  await dialog.getByTestId('after-decision-next').check();
  await expect.poll(async () => (await shell.ipc<{ afterDecision: string }>('settings.preferences', {})).afterDecision).toBe('next');
  await dialog.getByRole('button', { name: 'Close' }).last().click();

  await page.getByRole('button', { name: 'Reject', exact: true }).click();
  await page.getByRole('button', { name: 'Change the decision' }).click();
  await page.getByRole('dialog').getByLabel('Reason (required)').fill('The new capture never came.');
  await page.getByRole('dialog').getByRole('button', { name: 'Record decision' }).click();
  await expect(page.getByTestId('interview-id')).not.toHaveText('demo-clean-pass');
  await expect(page.getByTestId('moved-on')).toContainText('Reject');
});

test('every note, name and decision sent from this app stays listed under the notes box, with who and when', async ({ page, shell }) => {
  await openInterview(page, shell, 'demo-clean-pass');
  await panelsSettled(page);
  const history = page.getByTestId('sent-history');
  await expect(history).toContainText('Nothing sent yet');
  await page.getByLabel('Conference notes').fill('ID legible; face matches.');
  await page.getByRole('button', { name: 'Send note' }).click();
  await expect(page.getByTestId('notes-status')).toContainText('Sent');
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Ana María López');
  await page.getByRole('button', { name: 'Send name' }).click();
  await expect(history.getByRole('listitem')).toHaveCount(2);
  await recordDecision(page, 'Approve', 'All checks pass.');
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).first().click();

  await page.reload();
  await panelsSettled(page);
  const items = page.getByTestId('sent-history').getByRole('listitem');
  await expect(items).toHaveCount(3);
  await expect(items.nth(0)).toContainText('Decision: Approve');
  await expect(items.nth(0)).toContainText('All checks pass.');
  await expect(items.nth(1)).toContainText('Ana María López');
  await expect(items.nth(2)).toContainText('ID legible; face matches.');
  // Who sent it: the OS account main runs under.
  const who = (await shell.ipc<{ entries: { action: string; detail: { by?: string } }[] }>('interview.audit', { interviewId: 'demo-clean-pass' })).entries.find((e) => e.action === 'noted')?.detail.by;
  expect(who).toBeTruthy();
  await expect(items.nth(2)).toContainText(`by ${who}`);
});
