import { expect, test } from './fixtures';
import { goTo, openInterview, panelsSettled, SHOTS } from './review-helpers';

/**
 * The queue's views on this computer's record: ready-made ones, the filters beyond state and status, and views saved
 * in the review record, which outlive the window.
 */
test('filters the queue by risk and age, saves the view under a name, and finds it again after a reload', async ({
  page,
  shell,
}) => {
  // Each read of an interview's checks files it under their risk.
  for (const id of ['demo-fraud-high', 'demo-clean-pass']) {
    await openInterview(page, shell, id);
    await panelsSettled(page);
  }
  await goTo(page, '/interviews');
  const rows = page.getByTestId('queue-row');
  await expect(rows.filter({ hasText: 'demo-fraud-high' })).toContainText('High risk');
  await expect(rows.filter({ hasText: 'demo-clean-pass' })).toContainText('Low risk');
  // The table draws the rows in sight; the count above it says how many the view keeps.
  const kept = page.getByText(/^\d+ of \d+ interviews/);
  const all = Number((await kept.textContent())!.match(/of (\d+)/)![1]);
  expect(all).toBeGreaterThan(2);
  const keeps = (n: number) => expect(kept).toContainText(`${n} of ${all} interviews`);

  const viewPicker = page.getByLabel('View', { exact: true });
  await viewPicker.selectOption({ label: 'High risk' });
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('demo-fraud-high');
  await expect(page.getByLabel('Risk', { exact: true })).toHaveValue('high');
  await keeps(1);

  // Narrowed further by hand: unsaved filters, until saved under a name.
  await page.getByLabel('Risk', { exact: true }).selectOption('unknown');
  await page.getByLabel('Waiting time', { exact: true }).selectOption('pastTarget');
  await expect(viewPicker).toHaveValue('custom');
  // Seeded interviews were added just now: none waits past the 24 h target yet.
  await expect(page.getByText('No interview matches the search and filters.')).toBeVisible();
  await page.getByLabel('Waiting time', { exact: true }).selectOption('withinTarget');
  await keeps(all - 2);
  await expect(rows.filter({ hasText: 'demo-clean-pass' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Save view…' }).click();
  await page.getByLabel('Name of the view').fill('Checks not read yet');
  await page.screenshot({ path: `${SHOTS}/queue-views-save-en.png` });
  await page.getByRole('button', { name: 'Save view', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'View “Checks not read yet” saved.' })).toBeVisible();
  await expect(viewPicker.locator('option:checked')).toHaveText('Checks not read yet');

  // Back to everything, and to the saved view from the list: its filters come back with it.
  await viewPicker.selectOption({ label: 'All interviews' });
  await keeps(all);
  await viewPicker.selectOption({ label: 'Checks not read yet' });
  await keeps(all - 2);
  await expect(page.getByLabel('Waiting time', { exact: true })).toHaveValue('withinTarget');
  await page.screenshot({ path: `${SHOTS}/queue-views-en.png` });

  // Kept in the record: a new window lists it; the view in use is the window's own.
  await page.evaluate(() => window.sessionStorage.removeItem('omni-queue-view'));
  await page.reload();
  await keeps(all);
  await expect(viewPicker.locator('optgroup[label="My views"] option')).toHaveText(['Checks not read yet']);

  await shell.ipc('settings.setPreferences', { language: 'es' });
  await page.reload();
  const vista = page.getByLabel('Vista', { exact: true });
  await vista.selectOption({ label: 'Riesgo alto' });
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Riesgo alto');
  await page.getByRole('button', { name: 'Guardar vista…' }).click();
  await expect(page.getByLabel('Nombre de la vista')).toBeFocused();
  await page.screenshot({ path: `${SHOTS}/queue-views-es.png` });
  await page.getByRole('button', { name: 'Cancelar' }).click();

  await vista.selectOption({ label: 'Checks not read yet' });
  await page.getByRole('button', { name: 'Eliminar vista' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Vista «Checks not read yet» eliminada.' })).toBeVisible();
  await expect(vista.locator('option', { hasText: 'Checks not read yet' })).toHaveCount(0);
  expect(await shell.ipc('queue.views', {})).toEqual([]);
});

test('refuses a view without a name where it enters, and says so', async ({ shell }) => {
  await expect(
    shell.ipc('queue.saveView', {
      name: '   ',
      shared: false,
      query: { filter: { state: 'all', status: 'all' }, sort: 'added', search: '' },
    }),
  ).rejects.toThrow(/INVALID_INPUT|Name the view/);
  await expect(
    shell.ipc('queue.saveView', {
      name: 'Odd',
      shared: false,
      query: { filter: { state: 'all', status: 'all', risk: 'extreme' }, sort: 'added', search: '' },
    }),
  ).rejects.toThrow();
});

test('Take next within a searched view takes the oldest free interview that view shows, and says when none is left', async ({
  page,
  shell,
}) => {
  await shell.ipc('queue.addDemoSeeds', {});
  await goTo(page, '/interviews');
  const take = page.getByTestId('take-next');
  await expect(take).toHaveText('Take next');
  await page.getByLabel('Search', { exact: true }).fill('passport');
  await expect(take).toHaveText('Take next in this view');
  await take.click();
  await expect(page.getByTestId('interview-id')).toHaveText('demo-passport');

  // Held now (the workspace keeps its claim): the view shows no other interview to take.
  await goTo(page, '/interviews');
  await expect(page.getByLabel('Search', { exact: true })).toHaveValue('passport');
  await take.click();
  await expect(page.getByTestId('take-next-none')).toHaveText(
    'Nothing left to take in this view: each interview to review it shows is held, or none is left.',
  );
  await page.screenshot({ path: `${SHOTS}/queue-take-next-in-view-en.png` });

  await shell.ipc('settings.setPreferences', { language: 'es' });
  await page.reload();
  await take.click();
  await expect(page.getByTestId('take-next')).toHaveText('Tomar la siguiente de esta vista');
  await expect(page.getByTestId('take-next-none')).toHaveText(
    'No queda nada por tomar en esta vista: cada entrevista por revisar que muestra ya la tiene alguien, o no queda ninguna.',
  );
  await page.screenshot({ path: `${SHOTS}/queue-take-next-in-view-es.png` });
});
