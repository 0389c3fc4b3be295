import { csvLines } from './csv-download';
import { axeOf } from './axe';
import type { Page } from '@playwright/test';
import { rfcCheckDigit } from '../../common/rules/rfc';
import { curpCases } from '../../main/demo-server/registries';
import { recordNotifications } from './notification-recorder';
import { expect, test, openApp, testOpeningTheApp } from './fixtures';

const SHOTS = '.tmp/screenshots/capture-tools';

async function axeClean(page: Page) {
  const { violations } = await axeOf(page).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

async function openValidation(page: Page) {
  await page
    .getByRole('navigation', { name: /Main navigation|Navegación principal/ })
    .getByRole('link', { name: /^(Validation|Validación)/ })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: /^(Validation|Validación)$/ })).toBeVisible();
}

const curp = (pred: (c: (typeof curpCases)[number]) => boolean) => curpCases.find(pred)!.curp;
const VALID_CURP = curp((c) => c.outcome.kind === 'valid');
const NOT_FOUND = curp((c) => c.outcome.kind === 'registry' && c.outcome.codigoError === '06');
const TRANSIENT = curp((c) => c.outcome.kind === 'registry' && c.outcome.group === 2);
const INTERNAL = curp((c) => c.outcome.kind === 'registry' && c.outcome.group === 3);
const DAILY = curp((c) => c.outcome.kind === 'provider' && c.outcome.descripcionRespuesta.startsWith('daily'));

test('RFC: explains what is wrong while typing, shows the 400 and 500 paths, then every field of a valid answer', async ({
  page,
  shell,
}) => {
  await openValidation(page);
  const rfc = page.getByRole('textbox', { name: 'RFC', exact: true });
  const check = page.getByTestId('local-check').first();
  await rfc.fill('GODE5612');
  await expect(check).toContainText('An RFC has 13 characters (person) or 12 (company); this one has 8.');
  await rfc.fill('GODE561331GR8');
  await expect(check).toContainText('are not a valid date');
  await expect(page.getByRole('button', { name: 'Validate with SAT' })).toBeDisabled();
  await page.screenshot({ path: `${SHOTS}/rfc-local-check.png`, fullPage: true });
  // A paste that brought an invisible character: named, and left out of the count and of what is sent.
  await rfc.fill('GODE56\u200b1231GR8');
  await expect(page.getByTestId('local-invisible')).toContainText('U+200B');
  await expect(page.getByRole('button', { name: 'Validate with SAT' })).toBeEnabled();
  await page.screenshot({ path: `${SHOTS}/rfc-invisible-character.png` });
  await rfc.fill('GODE561331GR8');

  // The service's own refusal of the format (400) is reachable on purpose.
  await page.getByRole('button', { name: 'Send to the service anyway' }).first().click();
  await expect(
    page
      .getByRole('alert')
      .filter({ hasText: /HTTP|400|request/i })
      .first(),
  ).toBeVisible();
  await expect(page.getByText(/Error code .*400/)).toBeVisible();

  // Written as people write it, with a check digit that SAT may still have issued: a warning, and the service decides.
  await rfc.fill('SOTO 800101-110');
  await expect(check).toContainText('The format is correct (person).');
  await expect(page.getByTestId('local-warning')).toContainText(
    'The check digit is "0" where the other characters give "9". SAT has issued some RFCs like this; the service decides.',
  );
  await expect(rfc).not.toHaveAttribute('aria-invalid');
  await page.getByRole('button', { name: 'Validate with SAT' }).click();
  await expect(page.getByTestId('rfc-result')).toContainText('SAT lists this RFC');
  await expect(page.getByTestId('rfc-result').locator('code')).toHaveText('SOTO800101110');
  await page
    .locator('section')
    .filter({ has: page.getByRole('heading', { name: 'RFC', exact: true }) })
    .screenshot({ path: `${SHOTS}/rfc-check-digit-warning.png` });

  await rfc.fill('GODE561231GR8');
  await expect(check).toContainText('Format and check digit are correct (person).');
  await shell.demo('faults', { route: 'validateRfc', kind: 'status', status: 500 });
  await page.getByRole('button', { name: 'Validate with SAT' }).click();
  const failure = page.getByRole('alert').filter({ hasText: /500/ });
  await expect(failure).toBeVisible();
  await failure.getByRole('button', { name: 'Retry' }).click();
  const result = page.getByTestId('rfc-result');
  await expect(result).toContainText('SAT lists this RFC');
  for (const field of ['validRFC', 'status', 'message', 'rfcType', 'messageCode', 'errorMessage'])
    await expect(result.getByRole('rowheader', { name: field, exact: true })).toBeVisible();
  await axeClean(page);
  await page
    .locator('section')
    .filter({ has: page.getByRole('heading', { name: 'RFC', exact: true }) })
    .screenshot({ path: `${SHOTS}/rfc-valid.png` });
});

test('CURP: needs a session token, explains every group in the chosen language, retry only where it helps', async ({
  page,
  shell,
}) => {
  // demo-clean-pass without its token: a first run queues the demo's interviews with theirs, so the queue starts over.
  await shell.ipc('settings.resetDemoData', {});
  await shell.ipc('queue.add', { items: [{ interviewId: 'demo-clean-pass' }] });
  await openValidation(page);
  const curpSection = page.locator('section').filter({ has: page.getByRole('heading', { name: 'CURP', exact: true }) });
  await curpSection.getByLabel('Interview', { exact: true }).selectOption('demo-clean-pass');
  await expect(curpSection.getByTestId('token-state')).toContainText('This interview has no session token');
  await curpSection.getByRole('textbox', { name: 'CURP', exact: true }).fill(VALID_CURP);
  await expect(curpSection.getByRole('button', { name: 'Validate with RENAPO' })).toBeDisabled();
  await expect(curpSection.getByTestId('curp-disabled')).toContainText('the chosen interview has no session token');
  await axeClean(page);
  await page.screenshot({ path: `${SHOTS}/curp-no-token.png`, fullPage: true });

  const interviews = (await (await fetch(`${shell.demoUrl}/__demo/interviews`)).json()) as {
    interviewId: string;
    sessionToken: string;
  }[];
  const token = interviews.find((i) => i.interviewId === 'demo-clean-pass')!.sessionToken;
  await curpSection.getByLabel('Session token for demo-clean-pass').fill(token);
  await curpSection.getByRole('button', { name: 'Attach token' }).click();
  await expect(curpSection.getByTestId('token-state')).toContainText('Session token attached');
  expect(await page.content()).not.toContain(token);

  const validate = curpSection.getByRole('button', { name: 'Validate with RENAPO' });
  const result = curpSection.getByTestId('curp-result');
  await validate.click();
  await expect(result).toContainText('RENAPO confirms this CURP');

  await curpSection.getByRole('textbox', { name: 'CURP', exact: true }).fill(NOT_FOUND);
  await validate.click();
  await expect(result).toContainText('Group 1 · Check the input');
  await expect(result.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  // The explanation says what the raw fields would (success false, renapo_valid false, codigoError 06): none shown.
  await expect(result.locator('.response-fields')).toHaveCount(0);
  await expect(result).not.toContainText('renapo_valid');
  await expect(result.getByTestId('service-answer')).toHaveCount(0);
  await curpSection.screenshot({ path: `${SHOTS}/curp-not-found.png` });

  await curpSection.getByRole('textbox', { name: 'CURP', exact: true }).fill(INTERNAL);
  await validate.click();
  await expect(result).toContainText('Group 3 · Contact support');
  await expect(result.getByRole('button', { name: 'Retry' })).toHaveCount(0);

  await curpSection.getByRole('textbox', { name: 'CURP', exact: true }).fill(DAILY);
  await validate.click();
  await expect(result).toContainText('Provider · Retrying will not help');

  await curpSection.getByRole('textbox', { name: 'CURP', exact: true }).fill(TRANSIENT);
  await validate.click();
  await expect(result).toContainText('Group 2 · Retry may help');
  await expect(result.getByRole('button', { name: 'Retry' })).toBeVisible();
  await curpSection.screenshot({ path: `${SHOTS}/curp-group2.png` });
  await axeClean(page);

  // Same failure in Spanish.
  await shell.ipc('settings.setPreferences', { language: 'es' });
  await page.reload();
  await openValidation(page);
  const es = page.locator('section').filter({ has: page.getByRole('heading', { name: 'CURP', exact: true }) });
  await es.getByLabel('Entrevista', { exact: true }).selectOption('demo-clean-pass');
  await es.getByRole('textbox', { name: 'CURP', exact: true }).fill(NOT_FOUND);
  await es.getByRole('button', { name: 'Validar con RENAPO' }).click();
  await expect(es.getByTestId('curp-result')).toContainText('Grupo 1 · Revisa el dato capturado');
  await expect(es.getByTestId('curp-result').locator('.response-fields')).toHaveCount(0);
  await es.screenshot({ path: `${SHOTS}/curp-es.png` });

  // With technical details on, the field table and the service's answer are back.
  await shell.ipc('settings.setPreferences', { technicalDetails: true });
  await page.reload();
  await openValidation(page);
  await es.getByLabel('Entrevista', { exact: true }).selectOption('demo-clean-pass');
  await es.getByRole('textbox', { name: 'CURP', exact: true }).fill(NOT_FOUND);
  await es.getByRole('button', { name: 'Validar con RENAPO' }).click();
  const technical = es.getByTestId('curp-result');
  await expect(technical.getByRole('rowheader', { name: 'renapo_valid', exact: true })).toBeVisible();
  await technical.getByText('Detalles técnicos', { exact: true }).click();
  await expect(technical.getByTestId('service-answer-endpoint')).toHaveText('addCurp');
  await es.screenshot({ path: `${SHOTS}/curp-es-technical.png` });
});

testOpeningTheApp(
  'batch: CSV column with retries, pause and resume, per-row problems and a CSV export',
  async ({ page, shell }) => {
    // A 503 is retried inside the client (nothing was processed); a gateway's 502 is the batch runner's to retry.
    await shell.demo('faults', { route: 'validateRfc', kind: 'status', status: 502, times: 2 });
    const notifications = await recordNotifications(page);
    // The refused row's service answer is a technical detail (UX review M7).
    await shell.ipc('settings.setPreferences', { technicalDetails: true });
    await openApp(page, shell);
    await openValidation(page);
    const rfcs = [
      'GODE561231GR8',
      'MAG041126GT8',
      'XAXX010101000',
      'GODE561231GR9',
      'ABC',
      // Well formed, but SAT does not list it: the service's own answer comes with the row.
      `PEGJ800101AB${rfcCheckDigit('PEGJ800101AB')}`,
      ...Array.from({ length: 40 }, () => 'GODE561231GR8'),
    ];
    const csv = ['nombre,rfc', ...rfcs.map((r, i) => `Persona ${i + 1},${r}`)].join('\n');
    await page
      .getByLabel('CSV file', { exact: true })
      .setInputFiles({ name: 'rfcs.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expect(page.getByText('46 rows')).toBeVisible();
    await expect(page.getByLabel('Column to validate')).toHaveValue('1');
    await expect(page.getByRole('radio', { name: 'RFCs' })).toBeChecked();
    await page.getByLabel('Calls at the same time').fill('2');
    await page.getByRole('button', { name: 'Start batch' }).click();
    const run = page.getByTestId('batch-run');
    await expect(run.getByRole('progressbar', { name: 'Batch progress' })).toBeVisible();
    await run.getByRole('button', { name: 'Pause' }).click();
    await expect(run.getByText(/^(Paused|Pausing)/)).toBeVisible();
    await page.locator('section.batch').screenshot({ path: `${SHOTS}/batch-paused.png` });
    await run.getByRole('button', { name: 'Resume' }).click();
    await notifications.background(true);
    await expect(run.getByText('Finished: 46 rows validated: 43 valid, 3 not valid, 0 not checked.')).toBeVisible({
      timeout: 30_000,
    });
    await expect(run.getByRole('progressbar', { name: 'Batch progress' })).toHaveAttribute(
      'aria-valuetext',
      /Finished/,
    );
    await expect.poll(notifications.shown).toEqual([{ title: 'Omni Reviewer', body: 'Batch validation: finished.' }]);
    await notifications.background(false);
    await expect(run.getByTestId('count-valid')).toHaveText('43');
    await expect(run.getByTestId('count-invalid')).toHaveText('3');
    await expect(run.getByTestId('batch-problem')).toHaveCount(3);
    // The check-digit mismatch went to the service, which does not list it; the local warning stays beside its answer.
    await expect(run.getByTestId('batch-problem').first()).toContainText('SAT does not list this RFC');
    await expect(run.getByTestId('batch-problem').first()).toContainText('SAT has issued some RFCs like this');
    await expect(run.getByTestId('batch-problem').nth(1)).toContainText('local check, not sent');
    const refused = run.getByTestId('batch-problem').nth(2);
    await expect(refused).toContainText('SAT does not list this RFC');
    await refused.getByText('Technical details').click();
    await expect(refused.getByTestId('service-answer')).toContainText('"validRFC": false');
    await refused.screenshot({ path: `${SHOTS}/batch-row-service-answer.png` });
    await expect(run.getByTestId('batch-problem').nth(1).getByTestId('service-answer')).toHaveCount(0);
    await axeClean(page);
    await page.locator('section.batch').screenshot({ path: `${SHOTS}/batch-done.png` });

    const download = page.waitForEvent('download');
    await run.getByRole('button', { name: 'Export results (CSV)' }).click();
    const lines = await csvLines(await download);
    expect(lines).toHaveLength(47);
    expect(lines[0]).toBe('line,rfc,result,source,code,group,detail,next step,attempts');
  },
);

testOpeningTheApp(
  'batch: CURPs stop themselves at a daily provider limit and can be cancelled',
  async ({ page, shell }) => {
    await shell.ipc('queue.addDemoSeeds', {});
    const notifications = await recordNotifications(page);
    await openApp(page, shell);
    await openValidation(page);
    const curpSection = page
      .locator('section')
      .filter({ has: page.getByRole('heading', { name: 'CURP', exact: true }) });
    await curpSection.getByLabel('Interview', { exact: true }).selectOption('demo-clean-pass');
    const csv = [DAILY, ...Array.from({ length: 5 }, () => VALID_CURP)].join('\n');
    await page
      .getByLabel('CSV file', { exact: true })
      .setInputFiles({ name: 'curps.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expect(page.getByRole('radio', { name: 'CURPs' })).toBeChecked();
    await expect(page.getByText(/Each CURP is sent with the chosen interview/)).toBeVisible();
    await page.getByLabel('Calls at the same time').fill('1');
    // The limit comes on the first row, at once: the window is already in the background when it starts.
    await notifications.background(true);
    await page.getByRole('button', { name: 'Start batch' }).click();
    const run = page.getByTestId('batch-run');
    await expect(run.getByText(/The batch paused itself/)).toBeVisible();
    // Stopping itself needs the user: it notifies as a failure, once.
    await expect
      .poll(async () => (await notifications.shown()).map((n) => n.body))
      .toEqual([expect.stringMatching(/^Batch validation: failed\./)]);
    await page.locator('section.batch').screenshot({ path: `${SHOTS}/batch-curp-limit.png` });
    await run.getByRole('button', { name: 'Cancel' }).click();
    await expect(run.getByText(/^Cancelled: 1 of 6 rows were validated\.$/)).toBeVisible();
    expect(await notifications.shown()).toHaveLength(1);
  },
);
