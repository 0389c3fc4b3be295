import type { Locator, Page } from '@playwright/test';
import { expect, openApp, testOpeningTheApp, type ShellFixture } from './fixtures';
import { expectAxeClean, goTo, openInterview, panelsSettled } from './review-helpers';

/**
 * What a production service sends beyond the spec is in view (issue 25): each panel lists those fields with the
 * "not in the spec" mark, and keeps the whole answer, as read, under a closed "Service answer" line at its foot.
 */
const SHOTS = 'out/screens/service-answer';

const WORDS = {
  en: {
    more: 'More from the service',
    mark: '(not in the spec)',
    answer: 'Service answer',
    copy: 'Copy',
    checks: 'ID validation checks',
    fraud: 'Fraud risk',
    crossDoc: 'Cross-document comparison',
    video: 'Video selfie',
    apiKeys: 'API keys',
  },
  es: {
    more: 'Más del servicio',
    mark: '(no está en la especificación)',
    answer: 'Respuesta del servicio',
    copy: 'Copiar',
    checks: 'Validaciones de identificación',
    fraud: 'Riesgo de fraude',
    crossDoc: 'Comparación entre documentos',
    video: 'Video selfie',
    apiKeys: 'Claves de API',
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

/** Opens a panel's raw view (closed until asked) and gives its text. */
async function openAnswer(where: Locator, w: Words): Promise<Locator> {
  const disclosure = where.getByTestId('service-answer');
  await expect(disclosure.getByTestId('service-answer-body')).toHaveCount(0);
  await disclosure.getByText(w.answer).click();
  await expect(disclosure.getByRole('button', { name: w.copy })).toBeVisible();
  return disclosure.getByTestId('service-answer-body');
}

async function productionLike(shell: ShellFixture, language: 'en' | 'es', page: Page) {
  await shell.demo('profile', { profile: 'production-like' });
  await shell.ipc('settings.setPreferences', { language });
  await openApp(page, shell);
}

for (const language of ['en', 'es'] as const)
  testOpeningTheApp(
    `fields beyond the spec are in the panels and in the service's answer (${language})`,
    async ({ page, shell }) => {
      const w = WORDS[language];
      await productionLike(shell, language, page);
      await openInterview(page, shell, 'demo-fraud-high');
      await panelsSettled(page);

      const checks = panel(page, w.checks);
      await expectBeyondSpec(checks, w, 'checkResults[].engine', 'idv-core-7.4');
      await expectBeyondSpec(checks, w, 'traceId', /^[0-9a-f-]{36}$/);
      await page.screenshot({ path: `${SHOTS}/interview-${language}.png`, fullPage: true });
      const raw = await openAnswer(checks, w);
      await expect(raw).toContainText('"engine": "idv-core-7.4"');
      await expect(raw).toContainText('"name": "deepfakeVideoCheck"');
      await expect(raw).toContainText('"traceId": "');
      // The page, not the panel: the sticky decision bar would cover a panel's foot in an element shot.
      await raw.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/checks-answer-${language}.png` });

      const fraud = panel(page, w.fraud);
      await expectBeyondSpec(fraud, w, 'fraudRisk.riskModelRegion', 'mx-central-2');
      await expect(await openAnswer(fraud, w)).toContainText('"riskModelRegion": "mx-central-2"');

      const crossDoc = panel(page, w.crossDoc);
      await expectBeyondSpec(crossDoc, w, 'fullName.comparedBy', 'xdoc-3.1');

      // The video link reaches the raw view without its signature.
      const video = panel(page, w.video);
      const videoAnswer = await openAnswer(video, w);
      await expect(videoAnswer).toContainText(/"url": "http:\/\/127\.0\.0\.1:\d+\/files\/video-selfies\/[^"?]+\?…"/);
      await videoAnswer.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/video-answer-${language}.png` });
      await expectAxeClean(page);

      await goTo(page, '/api-keys');
      await expect(page.getByRole('heading', { level: 1, name: w.apiKeys })).toBeVisible();
      const keys = panel(page, w.apiKeys);
      await expectBeyondSpec(keys, w, '[].createdBy', 'admin@demo.mx');
      const keysAnswer = await openAnswer(keys, w);
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
