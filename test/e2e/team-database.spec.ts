import type { Page } from '@playwright/test';
import { startPostgres, type TestPostgres } from '../helpers/postgres';
import { expect, test } from './fixtures';

const SHOTS = '.tmp/screenshots';
let server: TestPostgres;
test.beforeAll(async () => {
  server = await startPostgres();
  await server.createDatabase('team');
});
test.afterAll(async () => server?.stop());

async function openTeamPanel(page: Page) {
  await page
    .getByRole('navigation')
    .getByRole('link', { name: /^(Settings|Configuración)/ })
    .click();
  const panel = page.getByTestId('team-database');
  await panel.scrollIntoViewIfNeeded();
  return panel;
}

test('an analyst saves the team database, tests it against a real PostgreSQL, and chooses it for the next start', async ({
  page,
  shell,
}) => {
  const panel = await openTeamPanel(page);
  await expect(panel.getByTestId('record-in-use')).toHaveText('This session keeps it on this computer.');
  // Only this computer is offered until an address is saved.
  await expect(panel.getByRole('radio', { name: 'On the team database' })).toHaveCount(0);

  await panel.getByRole('textbox', { name: 'Host', exact: true }).fill('db.example.mx');
  await panel.getByRole('textbox', { name: 'Port', exact: true }).fill(String(server.port));
  await panel.getByRole('textbox', { name: 'Database', exact: true }).fill('team');
  await panel.getByRole('textbox', { name: 'Your database user', exact: true }).fill(server.user);
  await panel.getByLabel('Password', { exact: true }).fill('s3creta-del-equipo');
  await panel.getByRole('radio', { name: 'Unencrypted (this computer only)' }).check();
  await panel.getByRole('button', { name: 'Save the address' }).click();
  await expect(panel.getByText('A server on another machine needs TLS with its certificate verified.')).toBeVisible();

  await panel.getByRole('textbox', { name: 'Host', exact: true }).fill(server.host);
  await panel.getByRole('button', { name: 'Save the address' }).click();
  await expect(panel.getByText('Saved.')).toBeVisible();
  await expect(panel.getByLabel('Password', { exact: true })).toHaveValue('');
  await expect(panel.getByText('A password is kept with your credentials')).toBeVisible();

  await panel.getByRole('button', { name: 'Test the team database' }).click();
  await expect(panel.getByTestId('team-test-ok')).toContainText(`Connected as ${server.user} to PostgreSQL`);

  await panel.getByRole('radio', { name: 'On the team database' }).check();
  await expect(panel.getByTestId('record-in-use')).toContainText(
    'From the next start it will be kept on the team database.',
  );
  await panel.screenshot({ path: `${SHOTS}/settings-team-database-en.png` });
  // The password never came back to the page.
  expect(await page.content()).not.toContain('s3creta-del-equipo');

  await page.getByLabel('Language').selectOption('es');
  const es = await openTeamPanel(page);
  await expect(es.getByTestId('record-in-use')).toContainText(
    'Desde el próximo inicio se guardará en la base de datos del equipo.',
  );
  await es.screenshot({ path: `${SHOTS}/settings-team-database-es.png` });
  expect(shell.output()).not.toContain('s3creta-del-equipo');
});

test('a wrong database name is named in the analyst’s language, with the server’s words in small print', async ({
  page,
}) => {
  const panel = await openTeamPanel(page);
  await page.getByLabel('Language').selectOption('es');
  await panel.getByRole('textbox', { name: 'Host', exact: true }).fill(server.host);
  await panel.getByRole('textbox', { name: 'Puerto', exact: true }).fill(String(server.port));
  await panel.getByRole('textbox', { name: 'Base de datos', exact: true }).fill('no_existe');
  await panel.getByRole('textbox', { name: 'Tu usuario de base de datos', exact: true }).fill(server.user);
  await panel.getByRole('radio', { name: 'Sin cifrar (solo esta computadora)' }).check();
  await panel.getByRole('button', { name: 'Guardar la dirección' }).click();
  await panel.getByRole('button', { name: 'Probar la base de datos del equipo' }).click();
  const alert = panel.getByRole('alert');
  await expect(alert).toContainText('no tiene una base de datos con ese nombre');
  await expect(alert).toContainText('no_existe');
  await panel.screenshot({ path: `${SHOTS}/settings-team-database-error-es.png` });
});
