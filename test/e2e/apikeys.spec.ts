import { csvLines } from './csv-download';
import { axeOf } from './axe';
import type { Page } from '@playwright/test';
import { expect, test, type ShellFixture } from './fixtures';

const SHOTS = '.tmp/screenshots/capture-tools';

async function axeClean(page: Page) {
  const { violations } = await axeOf(page).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

async function openApiKeys(page: Page) {
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'API keys' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();
}

async function credentials(shell: ShellFixture) {
  return (await (await fetch(`${shell.demoUrl}/__demo/credentials`)).json()) as {
    organizations: { organizationId: string; apiKey: string; superAdmin: boolean }[];
  };
}

test('lists masked keys, searches, sorts, copies an id and exports the visible rows', async ({
  page,
  shell,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: shell.origin });
  await openApiKeys(page);
  const rows = page.getByTestId('apikey-row');
  await expect(rows).toHaveCount(3);
  const { organizations } = await credentials(shell);
  // No full key anywhere on the page.
  const html = await page.content();
  for (const org of organizations) expect(html).not.toContain(org.apiKey);
  await expect(page.getByRole('cell', { name: /•/ }).first()).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/apikeys-list.png`, fullPage: true });
  await axeClean(page);

  // Sort by name, both directions.
  await page.getByRole('button', { name: 'Sort by Name' }).click();
  await expect(page.getByRole('columnheader', { name: 'Sort by Name', exact: true })).toHaveAttribute(
    'aria-sort',
    'ascending',
  );
  await expect(rows.first()).toContainText('Clave anterior');
  await page.getByRole('button', { name: 'Sort by Name' }).click();
  await expect(rows.first()).toContainText('Integración CRM');

  // Search narrows rows; `/` jumps to the search box.
  await page.getByRole('heading', { level: 1 }).click();
  await page.keyboard.press('/');
  await expect(page.getByRole('searchbox', { name: 'Search keys' })).toBeFocused();
  await page.keyboard.type('crm');
  await expect(rows).toHaveCount(1);
  await expect(page.getByText('1 of 3 keys')).toBeVisible();

  await page.getByRole('button', { name: 'Copy key id key-fin-crm' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Key id key-fin-crm copied.' })).toHaveCount(1);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('key-fin-crm');

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export visible rows (CSV)' }).click();
  const lines = await csvLines(await download);
  expect(lines).toHaveLength(2);
  expect(lines[0]).toContain('Key id,Name,Masked key,Created,Status');
  expect(lines[1]).toContain('key-fin-crm');
  // Yes/no and the status in words, as the table says them, not true/false.
  expect(lines[1]).not.toMatch(/\b(true|false)\b/);
  expect(lines[1]).toMatch(/,Enabled,.*,(Yes|No)$/);
  expect(lines.join('\n')).not.toContain('demo-fin-crm-8a3e5d1c06');
});

test('a super administrator lists another organization; the screen explains when the service ignores it', async ({
  page,
  shell,
}) => {
  const { organizations } = await credentials(shell);
  const other = organizations.find((o) => !o.superAdmin)!;
  await openApiKeys(page);
  await expect(page.getByText(/Only a super administrator key can list another organization/)).toBeVisible();
  await page.getByLabel('Organization (super administrators only)').fill(other.organizationId);
  await page.getByRole('button', { name: 'List this organization' }).click();
  await expect(page.getByTestId('org-note')).toContainText(`The service listed organization ${other.organizationId}`);
  await expect(page.getByTestId('apikey-row')).toHaveCount(2);

  // Switch the demo environment to the other organization's (non super administrator) key.
  const admin = organizations.find((o) => o.superAdmin)!;
  await page.getByRole('button', { name: 'Back to my organization' }).click();
  const envs = await shell.ipc<{ environments: { id: string; kind: string }[] }>('settings.environments');
  const demoId = envs.environments.find((e) => e.kind === 'demo')!.id;
  const creds = (await (await fetch(`${shell.demoUrl}/__demo/credentials`)).json()) as {
    organizations: { organizationId: string; apiKey: string; integrationId: string; secret: string }[];
  };
  const second = creds.organizations.find((o) => o.organizationId === other.organizationId)!;
  for (const [field, value] of [
    ['apiKey', second.apiKey],
    ['integrationId', second.integrationId],
    ['secret', second.secret],
  ] as const) {
    await shell.ipc('settings.setCredential', { environmentId: demoId, field, value });
  }
  await page.reload();
  await openApiKeys(page);
  await page.getByLabel('Organization (super administrators only)').fill(admin.organizationId);
  await page.getByRole('button', { name: 'List this organization' }).click();
  await expect(page.getByTestId('org-note')).toContainText(
    'your API key is not a super administrator, so the organization was ignored',
  );
  await page.screenshot({ path: `${SHOTS}/apikeys-ignored.png`, fullPage: true });
});

test('shows the service error with a retry, in Spanish when chosen', async ({ page, shell }) => {
  await shell.demo('faults', { route: 'listApiKeys', kind: 'status', status: 500 });
  await openApiKeys(page);
  await expect(page.getByRole('alert')).toBeVisible();
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByTestId('apikey-row')).toHaveCount(3);

  await shell.ipc('settings.setPreferences', { language: 'es' });
  await page.reload();
  await page
    .getByRole('navigation', { name: 'Navegación principal' })
    .getByRole('link', { name: /^Claves de API/ })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Claves de API' })).toBeVisible();
  await expect(page.getByText('3 de 3 claves')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Ordenar por Id de clave' })).toBeVisible();
  await expect(page.getByText(/con cualquier otra clave el servicio ignora este dato/)).toBeVisible();
  await axeClean(page);
});

test('a 429 names its Retry-After wait, counts it down, shows the service message, and recovers', async ({
  page,
  shell,
}) => {
  // Four answers of 429: the client's automatic retries run out on the fourth (Retry-After: 2), the fifth call succeeds.
  // The first three ask for no wait: waiting 2 s each kept a worker idle for 6 s (the client's waiting for each
  // Retry-After it is told is checked in test/main/omni/client.integration.test.ts).
  await shell.demo('faults', { route: 'listApiKeys', kind: 'status', status: 429, retryAfterS: 0, times: 3 });
  await shell.demo('faults', { route: 'listApiKeys', kind: 'status', status: 429, retryAfterS: 2, times: 1 });
  await openApiKeys(page);
  const alert = page.getByRole('alert');
  await expect(alert.getByTestId('retry-after')).toContainText(/retry in [12] s/, { timeout: 20_000 });
  await expect(alert.locator('.service-said')).toContainText('Injected fault');
  // "Wait" said once: the countdown stands for the advice while it runs.
  await expect(alert).not.toContainText('Retry may help');
  await expect(alert.getByRole('button', { name: 'Retry' })).toBeDisabled();
  await page.screenshot({ path: `${SHOTS}/apikeys-retry-after.png`, fullPage: true });
  await expect(alert.getByRole('button', { name: 'Retry' })).toBeEnabled({ timeout: 5_000 });
  await alert.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByTestId('apikey-row')).toHaveCount(3);
});

test('lists the readable keys of an answer with a record that is no key, and says how many were not read (en, es)', async ({
  page,
  shell,
}) => {
  const answer = [
    { id: 'k-1', name: 'Back office', maskedKey: 'demo-fin••••9b2e', enabled: true, createdAt: 1767225600000 },
    { name: 'record with no id', enabled: true },
    { id: 'k-2', name: 'Kiosk', maskedKey: 'demo-kio••••11aa', enabled: false, createdAt: 1767225600000 },
  ];
  await shell.demo('faults', { route: 'listApiKeys', kind: 'json', status: 200, body: answer, times: 2 });
  await openApiKeys(page);
  await expect(page.getByTestId('apikey-row')).toHaveCount(2);
  await expect(page.getByTestId('unread-records')).toContainText('1 record(s) that could not be read');
  await page.screenshot({ path: `${SHOTS}/apikeys-unread-record.png`, fullPage: true });
  await axeClean(page);
  await shell.ipc('settings.setPreferences', { language: 'es' });
  await page.reload();
  await expect(page.getByTestId('unread-records')).toContainText('1 registro(s) que no se pudieron leer');
  await page.screenshot({ path: `${SHOTS}/apikeys-unread-record-es.png`, fullPage: true });
});
