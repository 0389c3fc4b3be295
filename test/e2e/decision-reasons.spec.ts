import type { Page } from '@playwright/test';
import { expect, test, openApp, testOpeningTheApp } from './fixtures';
import { axeOf } from './axe';
import { countOf, decideWithCode, notesAtService, SHOTS } from './reason-helpers';
import { expectAxeClean, goTo, openInterview, panelsSettled } from './review-helpers';

/**
 * The Team screen through axe, but for its audit region's name, which repeats another's: known, and fixed in
 * another part of issue 35 (landmark-unique on `.team-audit`).
 */
async function expectTeamAxeClean(page: Page) {
  const result = await axeOf(page).disableRules(['landmark-unique']).analyze();
  expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test('a decision with a reason code: the case summary, its note at the service, its count on the Team screen (en)', async ({
  page,
  shell,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openInterview(page, shell, 'demo-clean-pass');
  await panelsSettled(page);
  const summary = page.getByTestId('case-summary');
  await expect(summary).toContainText('not decided yet');
  await expect(summary.locator('[data-part="risk"]')).toHaveText(/risk$/);
  await page.screenshot({ path: `${SHOTS}/reasons-summary-en.png` });

  // The dialog offers the codes of the kind chosen and says whether the applicant may try again.
  await page.getByRole('button', { name: 'Reject', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('decision-outcome')).toContainText('Final');
  const offered = await dialog.getByTestId('reason-codes').locator('label').allTextContents();
  expect(offered.map((text) => text.trim())).toEqual([
    'Document tampered with',
    'Identity mismatch',
    'Sanctions list match',
    'Underage',
  ]);
  await dialog.getByRole('radio', { name: 'Document tampered with' }).check();
  await dialog.getByLabel('Reason (required)').fill('The ID photo was pasted over another.');
  await page.screenshot({ path: `${SHOTS}/reasons-dialog-en.png` });
  await expectAxeClean(page);
  await dialog.getByRole('button', { name: 'Record decision' }).click();
  await expect(dialog.getByTestId('decision-recorded')).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).first().click();

  // Recorded with its code, and the note reached the service in its words.
  await expect(page.getByTestId('last-decision-code')).toHaveText('Document tampered with');
  await expect(summary).toContainText('decided: Reject (Document tampered with)');
  const notes = await notesAtService(shell, 'demo-clean-pass');
  expect(notes).toHaveLength(1);
  expect(notes[0]).toContain('Decision: REJECT');
  expect(notes[0]).toContain('Outcome: FINAL (the case is closed)');
  expect(notes[0]).toContain('Reason code: document_tampered (Document tampered with)');
  const trail = await shell.ipc<{ entries: { action: string; detail: Record<string, unknown> }[] }>('interview.audit', {
    interviewId: 'demo-clean-pass',
  });
  expect(trail.entries.find((e) => e.action === 'decided')?.detail).toMatchObject({
    reasonCode: 'document_tampered',
  });

  // Counted on the Team screen, under its label.
  await goTo(page, '/team');
  await expect(countOf(page, 'document_tampered')).toHaveText('1');
  await expect(page.getByTestId('team-per-code').locator('tr[data-code="document_tampered"]')).toContainText(
    'Document tampered with',
  );
  await page.getByTestId('team-per-code').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/reasons-team-en.png`, fullPage: true });
  await expectTeamAxeClean(page);
});

testOpeningTheApp(
  'en español: una nueva captura con su código, la nota al servicio en sus palabras, contada en Equipo',
  async ({ page, shell }) => {
    await shell.ipc('settings.setPreferences', { language: 'es' });
    await openApp(page, shell);
    await page.setViewportSize({ width: 1280, height: 800 });
    await openInterview(page, shell, 'demo-clean-pass');
    await panelsSettled(page);
    const summary = page.getByTestId('case-summary');
    await expect(summary).toContainText('sin decidir aún');

    await page.getByRole('button', { name: 'Solicitar nueva captura', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByTestId('decision-outcome')).toContainText('Reenvío');
    await dialog.getByRole('radio', { name: 'Reflejo en el documento' }).check();
    await dialog.locator('textarea').fill('El reflejo tapa la fecha de nacimiento.');
    await page.screenshot({ path: `${SHOTS}/reasons-dialog-es.png` });
    await expectAxeClean(page);
    await dialog.getByRole('button', { name: /^Registrar/ }).click();
    await expect(dialog.getByTestId('decision-recorded')).toBeVisible();
    await dialog.getByRole('button', { name: 'Cerrar' }).first().click();

    await expect(summary).toContainText('decidida: Solicitar nueva captura (Reflejo en el documento)');
    await page.screenshot({ path: `${SHOTS}/reasons-summary-es.png` });
    // The service reads English: the note carries the code's English label, whatever the screen's language.
    const notes = await notesAtService(shell, 'demo-clean-pass');
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain('Outcome: RESUBMIT (the applicant is asked for a new capture)');
    expect(notes[0]).toContain('Reason code: glare (Glare on the document)');

    await goTo(page, '/team');
    await expect(countOf(page, 'glare')).toHaveText('1');
    await expect(page.getByTestId('team-per-code').locator('tr[data-code="glare"]')).toContainText(
      'Reflejo en el documento',
    );
    await page.getByTestId('team-per-code').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/reasons-team-es.png`, fullPage: true });
    await expectTeamAxeClean(page);
  },
);

test('the case summary of a risky interview names what failed, on one line at 1280 and whole words at 1024', async ({
  page,
  shell,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openInterview(page, shell, 'demo-fraud-high');
  await panelsSettled(page);
  const summary = page.getByTestId('case-summary');
  await expect(summary.locator('[data-part="risk"]')).toHaveText('High risk');
  await expect(summary.locator('[data-part="fraud"]')).toContainText('fraud risk high');
  await expect(summary.locator('[data-part="decision"]')).toContainText('not decided yet');
  const lineHeight = await summary.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
  expect((await summary.boundingBox())!.height).toBeLessThan(lineHeight * 2);
  await page.screenshot({ path: `${SHOTS}/reasons-summary-risky-en-1280.png` });
  await shell.ipc('settings.setPreferences', { language: 'es' });
  await page.reload();
  await page.setViewportSize({ width: 1024, height: 768 });
  await expect(summary.locator('[data-part="risk"]')).toHaveText('Riesgo alto');
  await expect(summary.locator('[data-part="fraud"]')).toContainText('riesgo de fraude alto');
  // Parts wrap whole: none is wider than the line it sits on.
  const heights = await summary
    .locator('.case-summary-part')
    .evaluateAll((parts) => parts.map((p) => p.getBoundingClientRect().height));
  expect(Math.max(...heights)).toBeLessThan(lineHeight * 1.5);
  await page.screenshot({ path: `${SHOTS}/reasons-summary-risky-es-1024.png` });
});

test('an interview no check ran on reads "risk not assessed", and approving it says what it goes without', async ({
  page,
  shell,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openInterview(page, shell, 'demo-empty-idv');
  await panelsSettled(page);
  const summary = page.getByTestId('case-summary');
  // Nothing ran: no "low" is said of it (filed as unassessed, as the queue shows it).
  await expect(summary.locator('[data-part="risk"]')).toHaveText('Risk not assessed');
  await expect(summary.locator('[data-part="checks"]')).toContainText('no ID check ran');
  await page.getByRole('button', { name: 'Approve', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('approve-without')).toContainText(
    'You are approving without: ID checks (none ran); a fraud risk score.',
  );
  await page.screenshot({ path: `${SHOTS}/approve-without-en.png` });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();

  await shell.ipc('settings.setPreferences', { language: 'es' });
  await page.reload();
  await expect(summary.locator('[data-part="risk"]')).toHaveText('Riesgo sin evaluar');
  await page.getByRole('button', { name: 'Aprobar', exact: true }).click();
  await expect(page.getByRole('dialog').getByTestId('approve-without')).toContainText(
    'Vas a aprobar sin: validaciones de identificación (no se ejecutó ninguna); una puntuación de riesgo de fraude.',
  );
  await page.screenshot({ path: `${SHOTS}/approve-without-es.png` });
});

test('the embedded record’s codes are kept in Settings: a code added there is offered when deciding', async ({
  page,
  shell,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await goTo(page, '/settings');
  const editor = page.getByTestId('reason-codes-editor');
  const reject = editor.locator('fieldset[data-kind="reject"]');
  await reject.getByRole('button', { name: 'Add a code' }).click();
  // A code that is not one is refused where it is typed.
  await reject.getByRole('textbox', { name: 'Reason code' }).fill('Forged Selfie');
  await editor.getByRole('button', { name: 'Save reason codes' }).click();
  await expect(reject.locator('.field-error')).toContainText('lower-case letters');
  await reject.getByRole('textbox', { name: 'Reason code' }).fill('forged_selfie');
  await reject.getByRole('textbox', { name: 'English label (forged_selfie)' }).fill('Forged selfie');
  await reject.getByRole('textbox', { name: 'Spanish label (forged_selfie)' }).fill('Selfie falsificada');
  // Retired: no longer offered, kept for the decisions that used it.
  await reject.getByRole('checkbox', { name: 'In use (underage)' }).uncheck();
  await editor.getByRole('button', { name: 'Save reason codes' }).click();
  await expect(editor.getByRole('status')).toHaveText('Reason codes saved.');
  await reject.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/reasons-settings-en.png` });
  await expectAxeClean(page);

  await openInterview(page, shell, 'demo-clean-pass');
  await panelsSettled(page);
  await page.getByRole('button', { name: 'Reject', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('radio', { name: 'Forged selfie' })).toBeVisible();
  await expect(dialog.getByRole('radio', { name: 'Underage' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await decideWithCode(page, 'Reject', 'Forged selfie', 'A printed photo held to the camera.', 'Record decision');
  expect((await notesAtService(shell, 'demo-clean-pass'))[0]).toContain('Reason code: forged_selfie (Forged selfie)');

  await shell.ipc('settings.setPreferences', { language: 'es' });
  await page.reload();
  await goTo(page, '/settings');
  await expect(page.getByTestId('reason-codes-editor')).toBeVisible();
  await page.getByTestId('reason-codes-editor').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/reasons-settings-es.png` });
});

test('a code retired while the dialog is open: refused by the record, nothing sent, the list read again', async ({
  page,
  shell,
}) => {
  await openInterview(page, shell, 'demo-clean-pass');
  await panelsSettled(page);
  await page.getByRole('button', { name: 'Reject', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('radio', { name: 'Underage' }).check();
  await dialog.getByLabel('Reason (required)').fill('The applicant is 16.');
  // A supervisor retires it meanwhile (on this computer's record, its one user).
  const codes = await shell.ipc<{ code: string; active: boolean }[]>('team.reasonCodes', {});
  await shell.ipc('team.saveReasonCodes', {
    codes: codes.map((c) => (c.code === 'underage' ? { ...c, active: false } : c)),
  });
  await dialog.getByRole('button', { name: 'Record decision' }).click();
  await expect(dialog.getByRole('alert')).toContainText("not one of the team's codes");
  await expect(dialog.getByRole('radio', { name: 'Underage' })).toHaveCount(0);
  await expect(dialog.getByRole('radio', { checked: true })).toHaveCount(0);
  // The reason typed is kept; nothing was recorded or sent.
  await expect(dialog.getByLabel('Reason (required)')).toHaveValue('The applicant is 16.');
  expect(await notesAtService(shell, 'demo-clean-pass')).toEqual([]);
  await expect(page.getByTestId('last-decision')).toHaveCount(0);
});
