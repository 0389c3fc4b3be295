import { readFile, writeFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, test, type ShellFixture, openApp, testOpeningTheApp } from './fixtures';
import { openInterview, panelsSettled } from './review-helpers';

/**
 * Journeys against the demo service's production profile (docs/demo-server.md): nulls for absent optional fields,
 * epoch times, page-wrapped lists, enum values beyond the spec, gzip on every answer, the standard sealed layout.
 */
const SHOTS = 'out/screens/production-profile';

async function productionLike(shell: ShellFixture) {
  const res = await shell.demo('profile', { profile: 'production-like' });
  expect(await res.json()).toEqual({ profile: 'production-like' });
}

async function nav(page: Page, name: RegExp | string) {
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name }).first().click();
}

test('an interview whose answers carry nulls shows its checks, the check beyond the spec, and its fraud risk', async ({
  page,
  shell,
}) => {
  await productionLike(shell);
  await openInterview(page, shell, 'demo-clean-pass');
  await panelsSettled(page);
  const checks = page.getByTestId('checks-table');
  await expect(checks).toBeVisible();
  const beyond = checks.getByRole('row').filter({ hasText: 'deepfakeVideoCheck' });
  await expect(beyond.getByTestId('not-in-spec')).toHaveText('critical (unexpected value)');
  const fraud = page.getByTestId('fraud-risk');
  await expect(fraud).toBeVisible();
  await expect(fraud.getByTestId('fraud-score')).not.toBeEmpty();
  // The summary names the check of a severity it does not know as the dialog will ask to acknowledge it (UX review 23).
  await expect(page.getByTestId('case-summary').locator('[data-part="checks"]')).toContainText(
    'deepfakeVideoCheck (critical)',
  );
  // Empty lists the service sent as null read as empty, not as a broken panel.
  await expect(page.locator('.workspace').getByText(/unexpected shape/i)).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/interview-nulls.png`, fullPage: true });
  await fraud.scrollIntoViewIfNeeded();
  await fraud.screenshot({ path: `${SHOTS}/interview-nulls-fraud.png` });
});

test('a field that does not parse is shown raw and flagged; the rest of the panel stays', async ({ page, shell }) => {
  await productionLike(shell);
  const check = (name: string, result: unknown) => ({ name, severity: 'low', version: '3.2.0', result });
  await shell.demo('faults', {
    route: 'getRawIdvResults',
    kind: 'json',
    times: 20,
    body: {
      checkResults: [check('faceTamperCheck', 0.03), check('idTamperCheck', 'n/a'), 'not a check'],
      fraudRisk: { name: 'checkFraudRisk', severity: 'LOW', version: 3, result: 0.12, topNFraudCodes: 'F1;F2' },
    },
  });
  await openInterview(page, shell, 'demo-clean-pass');
  await panelsSettled(page);
  const checks = page.getByTestId('checks-table');
  await expect(checks.getByRole('row')).toHaveCount(3);
  // The value that is no number is shown as it came, flagged, not as "did not run".
  const unreadable = checks.getByRole('row').filter({ hasText: 'idTamperCheck' });
  await expect(unreadable.getByTestId('not-in-spec')).toHaveText('"n/a" (unexpected value)');
  await expect(unreadable).not.toContainText('Did not run');
  await expect(page.getByTestId('unread-fields').filter({ hasText: '"not a check"' })).toBeVisible();
  const fraud = page.getByTestId('fraud-risk');
  await expect(fraud.getByTestId('fraud-score')).toHaveText('0.12');
  await expect(fraud.getByTestId('unread-fields')).toContainText('"F1;F2"');
  await checks.scrollIntoViewIfNeeded();
  await page
    .locator('.workspace .panel')
    .filter({ has: checks })
    .screenshot({ path: `${SHOTS}/unread-check.png` });
  await fraud.screenshot({ path: `${SHOTS}/unread-fraud.png` });
});

/** A refusal in the service's error body, as a production service words one for an ended session. */
const refusal = (route: string, message: string) => ({
  route,
  kind: 'json',
  status: 400,
  times: 5,
  body: { timestamp: Date.now(), status: 400, error: 'Bad Request', message, path: `/omni/${route}` },
});
const answer = (route: string, body: unknown) => ({ route, kind: 'json', times: 5, body });

/**
 * Per ended status, the answers a production service gives for such a session: an empty result, a refusal (the
 * panel's error state), no contract links. Every panel then names the session's state, never its own "nothing".
 */
const ENDED = {
  Deleted: {
    interviewId: 'demo-deleted',
    faults: [
      answer('getRawIdvResults', { checkResults: [], fraudRisk: null }),
      refusal('getCrossDocResults', 'Interview demo-deleted is Deleted.'),
    ],
    said: { en: "This interview's session was deleted", es: 'La sesión de esta entrevista fue eliminada' },
  },
  Closed: {
    interviewId: 'demo-closed',
    faults: [
      refusal('getRawIdvResults', 'Interview demo-closed is Closed.'),
      answer('getCrossDocResults', {}),
      refusal('getVideoSelfieUrl', 'Interview demo-closed is Closed.'),
      answer('getContractLinks', { success: true, sessionStatus: 'Closed', additionalInformation: null }),
    ],
    said: { en: "This interview's session is closed", es: 'La sesión de esta entrevista está cerrada' },
  },
} as const;

const PANELS = {
  en: ['Video selfie', 'ID validation checks', 'Fraud risk', 'Cross-document comparison', 'Contracts'],
  es: [
    'Video selfie',
    'Validaciones de identificación',
    'Riesgo de fraude',
    'Comparación entre documentos',
    'Contratos',
  ],
};
/** Each panel's own "nothing here", which would send the analyst looking for a missing result. */
const NOTHING = {
  en: /No contracts were uploaded|No fields were compared|was not run|No fraud risk was produced|The service has no video selfie/,
  es: /No se subieron contratos|No se compararon campos|no se ejecutó|No se produjo riesgo|El servicio no tiene video selfie/,
};

for (const [status, ended] of Object.entries(ENDED))
  for (const language of ['en', 'es'] as const)
    testOpeningTheApp(
      `a ${status} session says so in every panel instead of its "nothing here" (${language})`,
      async ({ page, shell }) => {
        await productionLike(shell);
        for (const fault of ended.faults) await shell.demo('faults', fault);
        await shell.ipc('settings.setPreferences', { language });
        await openApp(page, shell);
        await openInterview(page, shell, ended.interviewId);
        await panelsSettled(page);
        for (const title of PANELS[language]) {
          const panel = page
            .locator('.workspace .panel')
            .filter({ has: page.getByRole('heading', { name: title, exact: true }) });
          await expect(panel, title).toContainText(ended.said[language]);
          await expect(panel, title).not.toContainText(NOTHING[language]);
        }
        await page.screenshot({ path: `${SHOTS}/ended-${status}-${language}.png`, fullPage: true });
      },
    );

test('the API-keys screen lists page-wrapped keys with epoch times as dates', async ({ page, shell }) => {
  await productionLike(shell);
  await nav(page, 'API keys');
  const rows = page.getByTestId('apikey-row');
  await expect(rows).toHaveCount(3);
  const created = rows.first().locator('time');
  await expect(created).toHaveAttribute('datetime', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  await expect(page.getByText(/unexpected shape/i)).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/apikeys.png`, fullPage: true });
});

testOpeningTheApp('a video import answered with gzip succeeds once', async ({ page, shell }) => {
  await productionLike(shell);
  await shell.ipc('queue.addDemoSeeds', {});
  await openApp(page, shell);
  await nav(page, /^Capture/);
  await page.getByRole('tab', { name: 'Video import' }).click();
  await page.getByLabel('Interview', { exact: true }).selectOption('demo-clean-pass');
  const video = await readFile('main/demo-server/fixtures/video-selfie.webm');
  const tools = page.getByRole('tabpanel');
  await tools.getByLabel('Video file').setInputFiles({ name: 'selfie.webm', mimeType: 'video/webm', buffer: video });
  await tools.getByRole('button', { name: 'Import video' }).click();
  await expect(tools.getByTestId('import-done')).toContainText('rec-', { timeout: 20_000 });
  const recordings = (await (
    await fetch(`${shell.demoUrl}/__demo/interviews/demo-clean-pass/recordings`)
  ).json()) as unknown[];
  expect(recordings).toHaveLength(1);
  await tools.screenshot({ path: `${SHOTS}/import-gzip.png` });
});

test('a sealed PDF in the standard layout verifies; one byte of its original changed does not', async ({
  page,
  shell,
}, testInfo) => {
  await productionLike(shell);
  await nav(page, /^(Signing|Firma)/);
  const seal = page.locator('section.signing-seal');
  await seal.getByLabel('Signed contract id').fill('demo-clean-pass-credito');
  await seal.getByRole('button', { name: 'Seal with NOM-151' }).click();
  await expect(seal.locator('details.nom-secondary summary')).toContainText('Sealed PDF checked on its own: Verified');

  const sealedPath = testInfo.outputPath('sealed-standard.pdf');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Save the sealed PDF' }).click(),
  ]);
  await download.saveAs(sealedPath);
  const sealed = await readFile(sealedPath);
  // The standard layout: the original's bytes, then one incremental update.
  expect(sealed.toString('latin1').match(/%%EOF/g)).toHaveLength(2);

  const verify = page.locator('section.signing-verify');
  const verdict = verify.getByTestId('nom151-result');
  await verify.getByLabel('Evidence or sealed PDF').setInputFiles(sealedPath);
  await verify.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(verdict.getByText('Verified', { exact: true })).toBeVisible();
  await expect(verdict).toContainText('The original: the sealed PDF’s first revision');
  await verdict.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/standard-layout-verified.png`, fullPage: true });

  const tampered = Buffer.from(sealed);
  const at = Math.floor(tampered.toString('latin1').indexOf('%%EOF') / 2);
  tampered[at] = tampered[at]! ^ 0x01;
  const tamperedPath = testInfo.outputPath('sealed-standard-tampered.pdf');
  await writeFile(tamperedPath, tampered);
  await verify.getByLabel('Evidence or sealed PDF').setInputFiles(tamperedPath);
  await verify.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(verdict.getByText('Not valid', { exact: true })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/standard-layout-tampered.png`, fullPage: true });
});

test('a proxy login page in place of the service names the address and proxy, with the page’s words, then recovers', async ({
  page,
  shell,
}) => {
  await productionLike(shell);
  await shell.demo('faults', { route: 'listApiKeys', kind: 'html' });
  await nav(page, 'API keys');
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('The address answered with a web page');
  await expect(alert).toContainText('proxy');
  await expect(alert.locator('.service-said')).toContainText('Corporate network sign-in');
  // Named for what it is, not as a schema mismatch of the service's answer.
  await expect(alert).toContainText('Error code NOT_THE_SERVICE');
  await expect(alert).not.toContainText('SCHEMA_MISMATCH');
  await page.screenshot({ path: `${SHOTS}/web-page-not-service.png`, fullPage: true });
  await alert.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByTestId('apikey-row')).toHaveCount(3);
});

test('429s with Retry-After are retried, the last one is counted down, and it recovers', async ({ page, shell }) => {
  test.slow();
  await productionLike(shell);
  // Four 429s: the client's own retries (asked for no wait) run out on the fourth, whose 3 s the screen counts down;
  // the fifth call succeeds. (Waits of 5 s each kept a worker idle for 20 s; the client's waiting for each
  // Retry-After it is told is checked in test/main/omni/client.integration.test.ts.)
  await shell.demo('faults', { route: 'listApiKeys', kind: 'status', status: 429, retryAfterS: 0, times: 3 });
  await shell.demo('faults', { route: 'listApiKeys', kind: 'status', status: 429, retryAfterS: 3, times: 1 });
  await nav(page, 'API keys');
  const alert = page.getByRole('alert');
  await expect(alert.getByTestId('retry-after')).toContainText(/retry in [1-3] s/, { timeout: 30_000 });
  await expect(alert.getByRole('button', { name: 'Retry' })).toBeDisabled();
  await page.screenshot({ path: `${SHOTS}/retry-after-3.png`, fullPage: true });
  await expect(alert.getByRole('button', { name: 'Retry' })).toBeEnabled({ timeout: 8_000 });
  await alert.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByTestId('apikey-row')).toHaveCount(3);
});
