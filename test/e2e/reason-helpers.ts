import type { Page } from '@playwright/test';
import { expect, type ShellFixture } from './fixtures';

/** Where the reason-code journeys leave their screenshots (git-ignored). */
export const SHOTS = '.tmp/screenshots';

/** The conference notes the demo service received for an interview, as it exposes them. */
export async function notesAtService(shell: ShellFixture, interviewId: string): Promise<string[]> {
  const res = await fetch(`${shell.demoUrl}/__demo/interviews/${interviewId}`);
  return ((await res.json()) as { notes: { text: string }[] }).notes.map((n) => n.text);
}

/** Decides the open interview from its decision bar with one of the team's codes. */
export async function decideWithCode(page: Page, button: string, code: string, reason: string, confirm: string) {
  await page.getByRole('button', { name: button, exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('radio', { name: code }).check();
  await dialog.locator('textarea').fill(reason);
  await dialog.getByRole('button', { name: confirm }).click();
  await expect(dialog.getByTestId('decision-recorded')).toBeVisible();
  await dialog
    .getByRole('button', { name: /^(Close|Cerrar)$/ })
    .first()
    .click();
  await expect(dialog).toHaveCount(0);
}

/** The Team screen's count of one code today (UTC, as the screen counts). */
export function countOf(page: Page, code: string) {
  return page.getByTestId('team-per-code').locator(`tr[data-code="${code}"] td.num`).last();
}
