import { expect, test, openApp, testOpeningTheApp } from './fixtures';

const SHOTS = '.tmp/screenshots';
const PEM = '-----BEGIN CERTIFICATE-----\nMIIBaaaa\n-----END CERTIFICATE-----';

test('a changed team database address drops its password and says so; a saved CA can be removed', async ({
  page,
  shell,
}) => {
  await page
    .getByRole('navigation')
    .getByRole('link', { name: /^Settings/ })
    .click();
  const panel = page.getByTestId('team-database');
  await panel.scrollIntoViewIfNeeded();
  await panel.getByRole('textbox', { name: 'Host', exact: true }).fill('db.example.mx');
  await panel.getByRole('textbox', { name: 'Database', exact: true }).fill('team');
  await panel.getByRole('textbox', { name: 'Your database user', exact: true }).fill('ana');
  await panel.getByLabel('Password', { exact: true }).fill('s3creta-del-equipo');
  await panel.getByLabel(/CA certificate/).fill(PEM);
  await panel.getByRole('button', { name: 'Save the address' }).click();
  await expect(panel.getByText('A password is kept with your credentials')).toBeVisible();

  // Another port, no password typed: the one saved for the old address is not kept for this one.
  await panel.getByRole('textbox', { name: 'Port', exact: true }).fill('6543');
  await panel.getByLabel('Remove the saved CA certificate when saving').check();
  await panel.getByRole('button', { name: 'Save the address' }).click();
  await expect(panel.getByRole('status')).toHaveText(
    'Saved. The address, user, connection or CA changed, so the password saved for the old one was removed: type it again for this one.',
  );
  await expect(
    panel.getByText('Kept with your credentials (see “Where credentials are kept”), never shown again.'),
  ).toBeVisible();
  await expect(panel.getByLabel('Remove the saved CA certificate when saving')).toHaveCount(0);
  await panel.screenshot({ path: `${SHOTS}/settings-team-password-cleared-en.png` });
  expect(await page.content()).not.toContain('s3creta-del-equipo');
  expect(shell.output()).not.toContain('s3creta-del-equipo');

  await page.getByLabel('Language').selectOption('es');
  const es = page.getByTestId('team-database');
  await es.getByLabel('Contraseña', { exact: true }).fill('s3creta-del-equipo');
  await es.getByRole('button', { name: 'Guardar la dirección' }).click();
  // The first save answered (the button is disabled while it is on its way) before the user is changed.
  await expect(es.getByRole('status')).toHaveText('Guardado.');
  await es.getByRole('textbox', { name: 'Tu usuario de base de datos', exact: true }).fill('beto');
  await es.getByRole('button', { name: 'Guardar la dirección' }).click();
  await expect(es.getByRole('status')).toContainText('se eliminó la contraseña guardada para la anterior');
  await es.screenshot({ path: `${SHOTS}/settings-team-password-cleared-es.png` });
});

testOpeningTheApp(
  'pointing an environment elsewhere drops the session tokens attached for the old address, and the screen says how many',
  async ({ page, shell }) => {
    const creds = (await (await fetch(`${shell.demoUrl}/__demo/credentials`)).json()) as Record<string, string>;
    const [first, second] = (await (await fetch(`${shell.demoUrl}/__demo/interviews`)).json()) as {
      interviewId: string;
      sessionToken: string;
    }[];
    await shell.ipc('settings.updateEnvironment', { id: 'custom', baseUrl: shell.demoUrl, authUrl: shell.demoUrl });
    for (const field of ['apiKey', 'integrationId', 'secret'])
      await shell.ipc('settings.setCredential', { environmentId: 'custom', field, value: creds[field] });
    await shell.ipc('settings.setActiveEnvironment', { id: 'custom' });
    await shell.ipc('queue.add', { items: [first, second] });
    await openApp(page, shell);
    await page
      .getByRole('navigation')
      .getByRole('link', { name: /^Settings/ })
      .click();

    await page.getByLabel('Base URL').fill('http://127.0.0.1:9');
    await page.getByLabel('Authorization URL').fill('http://127.0.0.1:9');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const status = page.getByRole('status').filter({ hasText: 'Saved.' });
    await expect(status).toContainText('The address changed, so the stored credentials were cleared');
    await expect(status).toContainText('The session tokens of 2 interviews were attached for the old address');
    await page.screenshot({ path: `${SHOTS}/settings-tokens-cleared-en.png` });
    for (const { sessionToken } of [first!, second!]) expect(await page.content()).not.toContain(sessionToken);
  },
);
