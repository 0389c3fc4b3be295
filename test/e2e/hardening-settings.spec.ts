import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

const SHOTS = '.tmp/screenshots';

async function openSettings(page: Page) {
  await page
    .getByRole('navigation')
    .getByRole('link', { name: /^(Settings|Configuración)/ })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: /Settings|Configuración/ })).toBeVisible();
}

test('Settings resets the demo data: the queue and drafts are forgotten after a confirmation', async ({
  page,
  shell,
}) => {
  await shell.ipc('queue.importText', {
    text: 'interviewId,sessionToken\ndemo-reset-1,\ndemo-reset-2,',
    format: 'csv',
  });
  await shell.ipc('interview.saveDraft', { interviewId: 'demo-reset-1', kind: 'notes', text: 'Nota que se olvidará' });
  // The two added here beside the demo's own, which a first run puts in the queue.
  const queued = (await shell.ipc<unknown[]>('queue.list')).length;
  expect(queued).toBeGreaterThan(2);
  await openSettings(page);
  const panel = page.locator('section.panel', { has: page.getByRole('heading', { name: 'Demo data' }) });
  await panel.getByRole('button', { name: 'Reset demo data' }).click();
  await expect(panel.getByText('Forget the demo queue, drafts and decisions?')).toBeVisible();
  await panel.getByRole('group').getByRole('button', { name: 'Reset demo data' }).click();
  await expect(panel.getByRole('status')).toHaveText(`Demo data reset: ${queued} interviews removed from the queue.`);
  await page.screenshot({ path: `${SHOTS}/settings-demo-data-reset.png` });
  expect(await shell.ipc<unknown[]>('queue.list')).toEqual([]);
  const drafts = await shell.ipc<{ notes?: { text: string } }>('interview.drafts', { interviewId: 'demo-reset-1' });
  expect(drafts.notes?.text).toBeUndefined();
});

test('a credential refused as typed says why at its field, in Spanish too (red team 20)', async ({ page, shell }) => {
  await shell.ipc('settings.setPreferences', { language: 'es' });
  await page.reload();
  await openSettings(page);
  const row = page.getByTestId('credential-apiKey');
  await row.getByRole('button', { name: 'Reemplazar' }).click();
  await row.getByLabel('Nuevo valor de Clave de API').fill('k'.repeat(5_000));
  await row.getByRole('button', { name: 'Guardar Clave de API' }).click();
  await expect(row).toContainText('Una credencial tiene a lo más 4,096 caracteres');
  await row.screenshot({ path: `${SHOTS}/credential-too-long-es.png` });
});
