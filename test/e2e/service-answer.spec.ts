import type { Locator, Page } from '@playwright/test';
import { expect, openApp, testOpeningTheApp, type ShellFixture } from './fixtures';
import { expectAxeClean, goTo, openInterview, panelsSettled } from './review-helpers';

/**
 * What a production service sends beyond the spec (issue 25). With "Show technical details" on (Settings →
 * Preferences), each panel lists those fields with the "not in the spec" mark, and keeps the whole answer, as read,
 * under a closed "Technical details" line at its foot. Off, as it starts, the panels show none of it: one quiet
 * sentence counts what the service sent beyond what the screen shows (UX review M7).
 */
const SHOTS = 'out/screens/service-answer';

const WORDS = {
  en: {
    more: 'More from the service',
    mark: '(not in the spec)',
    answer: 'Technical details',
    copy: 'Copy',
    hidden:
      /^The service sent (1 more detail|\d+ more details), not shown here \(Settings → Preferences → Show technical details\)\.$/,
    settings: 'Settings',
    showTechnical: 'Show technical details',
    checks: 'ID validation checks',
    fraud: 'Fraud risk',
    crossDoc: 'Cross-document comparison',
    video: 'Video selfie',
    apiKeys: 'API keys',
    createdBy: 'Created by',
  },
  es: {
    more: 'Más del servicio',
    mark: '(no está en la especificación)',
    answer: 'Detalles técnicos',
    copy: 'Copiar',
    hidden:
      /^El servicio envió (1 dato más, que no se muestra|\d+ datos más, que no se muestran) aquí \(Configuración → Preferencias → Mostrar detalles técnicos\)\.$/,
    settings: 'Configuración',
    showTechnical: 'Mostrar detalles técnicos',
    checks: 'Validaciones de identificación',
    fraud: 'Riesgo de fraude',
    crossDoc: 'Comparación entre documentos',
    video: 'Video selfie',
    apiKeys: 'Claves de API',
    createdBy: 'Creada por',
  },
} as const;
type Words = (typeof WORDS)[keyof typeof WORDS];

const panel = (page: Page, title: string) =>
  page.locator('.panel').filter({ has: page.getByRole('heading', { name: title, exact: true }) });

async function expectBeyondSpec(where: Locator, w: Words, field: string, value: string | RegExp) {
  const list = where.getByTestId('beyond-spec');
  await expect(list).toBeVisible();
  await expect(list).toContainText(w.more);
  await expect(list).toContainText(w.mark);
  const row = list.locator('dl > div').filter({ has: where.page().getByText(field, { exact: true }) });
  await expect(row.locator('dd')).toHaveText(value);
}

/** Opens a panel's raw view (closed until asked) and gives its text; the call it answers is named inside. */
async function openAnswer(where: Locator, w: Words, endpoint: string): Promise<Locator> {
  const disclosure = where.getByTestId('service-answer');
  await expect(disclosure.getByTestId('service-answer-body')).toHaveCount(0);
  await expect(disclosure.locator('summary')).toHaveText(w.answer);
  await disclosure.getByText(w.answer).click();
  await expect(disclosure.getByRole('button', { name: w.copy })).toBeVisible();
  await expect(disclosure.getByTestId('service-answer-endpoint')).toHaveText(endpoint);
  return disclosure.getByTestId('service-answer-body');
}

async function productionLike(
  shell: ShellFixture,
  language: 'en' | 'es',
  page: Page,
  { technicalDetails }: { technicalDetails?: boolean } = {},
) {
  await shell.demo('profile', { profile: 'production-like' });
  await shell.ipc('settings.setPreferences', { language, ...(technicalDetails ? { technicalDetails } : {}) });
  await openApp(page, shell);
}

/** Nothing a developer reads: no raw answer, no field list; at most the sentence that counts what is not shown. */
async function expectNothingTechnical(where: Locator, w: Words) {
  await expect(where.getByTestId('service-answer')).toHaveCount(0);
  await expect(where.getByTestId('beyond-spec')).toHaveCount(0);
  await expect(where.getByText(w.answer, { exact: true })).toHaveCount(0);
  for (const hidden of await where.getByTestId('beyond-spec-hidden').all()) await expect(hidden).toHaveText(w.hidden);
}

for (const language of ['en', 'es'] as const)
  testOpeningTheApp(
    `with technical details on, fields beyond the spec are in the panels and in the service's answer (${language})`,
    async ({ page, shell }) => {
      const w = WORDS[language];
      await productionLike(shell, language, page, { technicalDetails: true });
      await openInterview(page, shell, 'demo-fraud-high');
      await panelsSettled(page);

      const checks = panel(page, w.checks);
      await expectBeyondSpec(checks, w, 'checkResults[].engine', 'idv-core-7.4');
      await expectBeyondSpec(checks, w, 'traceId', /^[0-9a-f-]{36}$/);
      await page.screenshot({ path: `${SHOTS}/interview-${language}.png`, fullPage: true });
      const raw = await openAnswer(checks, w, 'getRawIdvResults');
      await expect(raw).toContainText('"engine": "idv-core-7.4"');
      await expect(raw).toContainText('"name": "deepfakeVideoCheck"');
      await expect(raw).toContainText('"traceId": "');
      // The page, not the panel: the sticky decision bar would cover a panel's foot in an element shot.
      await raw.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/checks-answer-${language}.png` });

      const fraud = panel(page, w.fraud);
      await expectBeyondSpec(fraud, w, 'fraudRisk.riskModelRegion', 'mx-central-2');
      await expect(await openAnswer(fraud, w, 'getRawIdvResults.fraudRisk')).toContainText(
        '"riskModelRegion": "mx-central-2"',
      );

      const crossDoc = panel(page, w.crossDoc);
      await expectBeyondSpec(crossDoc, w, 'fullName.comparedBy', 'xdoc-3.1');

      // The video link reaches the raw view without its signature.
      const video = panel(page, w.video);
      const videoAnswer = await openAnswer(video, w, 'getVideoSelfieUrl');
      await expect(videoAnswer).toContainText(/"url": "http:\/\/127\.0\.0\.1:\d+\/files\/video-selfies\/[^"?]+\?…"/);
      await videoAnswer.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/video-answer-${language}.png` });
      await expectAxeClean(page);

      await goTo(page, '/api-keys');
      await expect(page.getByRole('heading', { level: 1, name: w.apiKeys })).toBeVisible();
      const keys = panel(page, w.apiKeys);
      // The attributes the table shows as columns are not listed again under it.
      await expect(keys.getByText(w.createdBy, { exact: true })).toBeVisible();
      await expect(keys.getByTestId('beyond-spec').getByText('[].createdBy', { exact: true })).toHaveCount(0);
      const keysAnswer = await openAnswer(keys, w, 'listApiKeys');
      await expect(keysAnswer).toContainText('"createdBy": "admin@demo.mx"');
      await expect(keysAnswer).toContainText(/"maskedKey": "[^"]*•/);
      const { organizations } = (await (await fetch(`${shell.demoUrl}/__demo/credentials`)).json()) as {
        organizations: { apiKey: string }[];
      };
      const html = await page.content();
      for (const org of organizations) expect(html).not.toContain(org.apiKey);
      await page.screenshot({ path: `${SHOTS}/api-keys-${language}.png`, fullPage: true });
      await expectAxeClean(page);
    },
  );

for (const language of ['en', 'es'] as const)
  testOpeningTheApp(
    `technical details are off at first: no raw answer, no field names, one sentence per panel (${language})`,
    async ({ page, shell }) => {
      const w = WORDS[language];
      await productionLike(shell, language, page);
      await openInterview(page, shell, 'demo-fraud-high');
      await panelsSettled(page);

      const workspace = page.locator('.workspace');
      await expectNothingTechnical(workspace, w);
      // What the service sent beyond the spec is not dropped without a word: each panel counts it.
      const checks = panel(page, w.checks);
      await expect(checks.getByTestId('beyond-spec-hidden')).toHaveText(w.hidden);
      await expect(panel(page, w.fraud).getByTestId('beyond-spec-hidden')).toHaveText(w.hidden);
      for (const internal of ['getRawIdvResults', 'checkResults[].engine', 'traceId', 'idv-core-7.4'])
        await expect(workspace).not.toContainText(internal);
      await checks.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/off-interview-${language}.png`, fullPage: true });
      await expectAxeClean(page);

      await goTo(page, '/api-keys');
      await expect(page.getByRole('heading', { level: 1, name: w.apiKeys })).toBeVisible();
      const keys = panel(page, w.apiKeys);
      await expect(keys.getByText(w.createdBy, { exact: true })).toBeVisible();
      await expectNothingTechnical(keys, w);
      await expect(keys).not.toContainText('[].');
      await page.screenshot({ path: `${SHOTS}/off-api-keys-${language}.png`, fullPage: true });
    },
  );

testOpeningTheApp(
  'technical details are turned on in Settings → Preferences and stay on after a reload',
  async ({ page, shell }) => {
    const w = WORDS.en;
    await productionLike(shell, 'en', page);
    expect((await shell.ipc<{ technicalDetails: boolean }>('settings.preferences', {})).technicalDetails).toBe(false);
    await goTo(page, '/settings');
    const preferences = panel(page, 'Preferences');
    const toggle = preferences.getByRole('checkbox', { name: w.showTechnical });
    await expect(toggle).not.toBeChecked();
    await preferences.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/settings-preferences-en.png` });
    await expectAxeClean(page);
    await toggle.check();
    await expect
      .poll(async () => (await shell.ipc<{ technicalDetails: boolean }>('settings.preferences', {})).technicalDetails)
      .toBe(true);

    await page.reload();
    await goTo(page, '/settings');
    await expect(panel(page, 'Preferences').getByRole('checkbox', { name: w.showTechnical })).toBeChecked();
    await openInterview(page, shell, 'demo-fraud-high');
    await panelsSettled(page);
    const checks = panel(page, w.checks);
    await expectBeyondSpec(checks, w, 'traceId', /^[0-9a-f-]{36}$/);
    await expect(await openAnswer(checks, w, 'getRawIdvResults')).toContainText('"traceId": "');
    await expect(page.getByTestId('beyond-spec-hidden')).toHaveCount(0);

    // And off again, in Spanish: the panels are back to the one sentence.
    await shell.ipc('settings.setPreferences', { language: 'es' });
    await page.reload();
    await goTo(page, '/settings');
    const es = WORDS.es;
    const toggleEs = panel(page, 'Preferencias').getByRole('checkbox', { name: es.showTechnical });
    await expect(toggleEs).toBeChecked();
    await panel(page, 'Preferencias').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/settings-preferences-es.png` });
    await toggleEs.uncheck();
    await expect
      .poll(async () => (await shell.ipc<{ technicalDetails: boolean }>('settings.preferences', {})).technicalDetails)
      .toBe(false);
    await goTo(page, '/interviews/demo-fraud-high');
    await panelsSettled(page);
    await expectNothingTechnical(page.locator('.workspace'), es);
    await expect(panel(page, es.checks).getByTestId('beyond-spec-hidden')).toHaveText(es.hidden);
  },
);
