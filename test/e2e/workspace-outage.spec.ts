import type { Page } from '@playwright/test';
import { expect, openApp, testOpeningTheApp as test, type ShellFixture } from './fixtures';
import { SHOTS, expectAxeClean, openInterview, panelsSettled } from './review-helpers';

/** The service's calls behind the workspace's panels (the checks and the fraud risk read one call). */
const PANEL_ROUTES = [
  '/omni/generateVideoSelfieDownloadUrl',
  '/omni/get/raw-idv-results',
  '/omni/cross-doc-data-check/results',
  '/omni/get/contracts-links',
];

const WORDS = {
  en: {
    failed: 'The service had an internal error.',
    panels: '5 panels could not load.',
    retryAll: 'Retry all',
    retry: 'Retry',
    note: 'Could not load: see the notice above',
    titles: ['Video selfie', 'ID validation checks', 'Fraud risk', 'Cross-document comparison', 'Contracts'],
  },
  es: {
    failed: 'El servicio tuvo un error interno.',
    panels: '5 paneles no se pudieron cargar.',
    retryAll: 'Reintentar todo',
    retry: 'Reintentar',
    note: 'No se pudo cargar: ve el aviso de arriba',
    titles: [
      'Video selfie',
      'Validaciones de identificación',
      'Riesgo de fraude',
      'Comparación entre documentos',
      'Contratos',
    ],
  },
};

const panelTitled = (page: Page, title: string) =>
  page.locator('.workspace .panel', { has: page.getByRole('heading', { name: title, exact: true }) });

/** The client retries idempotent reads: enough faults to exhaust its attempts at each route. */
async function failing(shell: ShellFixture, routes: string[]) {
  for (const route of routes)
    expect((await shell.demo('faults', { route, kind: 'status', status: 500, times: 8 })).ok).toBe(true);
}

for (const language of ['en', 'es'] as const) {
  const w = WORDS[language];

  test(`one outage of every panel is said once above them, and Retry all brings them all back (${language})`, async ({
    page,
    shell,
  }) => {
    await shell.ipc('settings.setPreferences', { language });
    await failing(shell, PANEL_ROUTES);
    await openApp(page, shell);
    await openInterview(page, shell, 'demo-clean-pass');
    await panelsSettled(page);

    // One banner: what happened, how many panels, one Retry all, the code in small print.
    const banner = page.getByTestId('outage-banner');
    await expect(banner).toHaveCount(1);
    await expect(banner).toHaveAttribute('role', 'alert');
    await expect(banner).toContainText(w.failed);
    await expect(banner).toContainText(w.panels);
    await expect(banner.locator('.code')).toContainText('OMNI_HTTP · 500');
    await expect(banner.getByRole('button')).toHaveCount(1);
    await expect(banner.getByRole('button', { name: w.retryAll })).toBeEnabled();

    // Each panel: one line pointing to it, not the whole notice with its own Retry.
    await expect(page.getByTestId('panel-error-note')).toHaveCount(5);
    for (const title of w.titles)
      await expect(panelTitled(page, title).getByTestId('panel-error-note')).toHaveText(w.note);
    await expect(page.locator('.workspace .panel [role="alert"]')).toHaveCount(0);
    await expect(page.locator('.workspace .panel').getByRole('button', { name: w.retry, exact: true })).toHaveCount(0);
    // The service's own words, said once too.
    await expect(banner).toContainText('Injected fault');
    await expect(page.locator('.workspace .panel', { hasText: 'Injected fault' })).toHaveCount(0);
    await expectAxeClean(page);
    await page.screenshot({ path: `${SHOTS}/workspace-outage-${language}.png` });

    // The service is back: one click reads every failed panel again.
    await shell.demo('reset');
    await banner.getByRole('button', { name: w.retryAll }).click();
    await expect(page.getByTestId('video-player')).toBeVisible();
    await expect(page.getByTestId('checks-table')).toBeVisible();
    await expect(page.getByTestId('fraud-score')).toBeVisible();
    await expect(page.getByTestId('crossdoc-table')).toBeVisible();
    await expect(panelTitled(page, w.titles[4]!).locator('.contract-list li').first()).toBeVisible();
    await expect(banner).toHaveCount(0);
    await expect(page.getByTestId('panel-error-note')).toHaveCount(0);
  });

  test(`a panel failing alone keeps its full notice and its own Retry (${language})`, async ({ page, shell }) => {
    await shell.ipc('settings.setPreferences', { language });
    await failing(shell, ['/omni/cross-doc-data-check/results']);
    await openApp(page, shell);
    await openInterview(page, shell, 'demo-clean-pass');
    await panelsSettled(page);

    const crossDoc = panelTitled(page, w.titles[3]!);
    await expect(crossDoc.getByRole('alert')).toContainText(w.failed);
    await expect(crossDoc.getByRole('alert')).toContainText('OMNI_HTTP · 500');
    await expect(page.getByTestId('outage-banner')).toHaveCount(0);
    await expect(page.getByTestId('panel-error-note')).toHaveCount(0);
    await expect(page.getByTestId('checks-table')).toBeVisible();
    await shell.demo('reset');
    await crossDoc.getByRole('button', { name: w.retry, exact: true }).click();
    await expect(page.getByTestId('crossdoc-table')).toBeVisible();
  });
}

test('the banner counts down a Retry-After wait; refusals, each naming what was refused, stay in their panels', async ({
  page,
  shell,
}) => {
  await shell.ipc('settings.setPreferences', { language: 'en' });
  // The service asks to wait longer than the client waits on its own: the wait is the screen's to count.
  for (const route of PANEL_ROUTES)
    await shell.demo('faults', { route, kind: 'status', status: 429, retryAfterS: 30, times: 8 });
  await openApp(page, shell);
  await openInterview(page, shell, 'demo-clean-pass');
  await panelsSettled(page);
  const banner = page.getByTestId('outage-banner');
  await expect(banner).toContainText('Too many requests to the service.');
  await expect(banner.getByTestId('retry-after')).toContainText(/you can retry in \d+ s/);
  await expect(banner.getByRole('button', { name: 'Retry all' })).toBeDisabled();
  await expect(page.getByTestId('panel-error-note')).toHaveCount(5);

  // Refused as sent (400): each refusal names what was refused, so none is said for another (and a retry cannot help).
  // The checks and the fraud risk come from one call: one refusal, said in each of its two panels as before. A video
  // refused is said as no video, not as an error.
  await shell.demo('reset');
  for (const route of PANEL_ROUTES) await shell.demo('faults', { route, kind: 'status', status: 400, times: 8 });
  await page.getByRole('button', { name: 'Refresh all' }).click();
  await expect(panelTitled(page, 'ID validation checks').getByRole('alert')).toContainText('OMNI_HTTP · 400');
  await expect(banner).toHaveCount(0);
  await expect(page.getByTestId('panel-error-note')).toHaveCount(0);
  const refusals = {
    'ID validation checks': "The service refused to give this interview's ID checks.",
    'Fraud risk': "The service refused to give this interview's ID checks.",
    'Cross-document comparison': "The service refused to give this interview's document comparison.",
    Contracts: 'OMNI_HTTP · 400',
  };
  for (const [title, words] of Object.entries(refusals)) {
    await expect(panelTitled(page, title).getByRole('alert')).toContainText(words);
    await expect(panelTitled(page, title).getByRole('alert')).toContainText('OMNI_HTTP · 400');
    await expect(panelTitled(page, title).getByRole('button', { name: 'Retry' })).toHaveCount(0);
  }
});
