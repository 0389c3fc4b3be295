import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

const SHOTS = '.tmp/screenshots';

async function axeClean(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

interface ExportedTrail {
  format: string;
  environment: { id: string };
  chain: { ok: boolean };
  entries: { seq: number; action: string; interviewId?: string; environment: string; hash: string }[];
}

test('Settings lists the whole environment audit trail newest first, with a trusted root that belongs to no interview, and exports it', async ({ page, shell }) => {
  await shell.ipc('queue.addDemoSeeds', {});
  await shell.ipc('interview.open', { interviewId: 'demo-clean-pass' });
  const rootPem = await (await fetch(`${shell.demoUrl}/__demo/nom151-root.pem`)).text();
  await shell.ipc('nom151.addTrustedRoot', { pem: rootPem });

  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: /^Settings/ }).click();
  const panel = page.locator('section.panel').filter({ has: page.getByRole('heading', { name: 'Audit trail' }) });
  await expect(panel.getByTestId('audit-trail-chain')).toContainText('Hash chain verified');
  const rows = panel.getByTestId('audit-trail-table').locator('tbody tr');
  await expect(rows).toHaveCount(2);
  // Newest first: the trusted root, which no interview screen can show, then the interview that was opened.
  await expect(rows.nth(0)).toContainText('NOM-151 root trusted');
  await expect(rows.nth(0)).toContainText('Whole environment');
  await expect(rows.nth(0)).toContainText('SHA-256');
  await expect(rows.nth(1)).toContainText('Opened');
  await expect(rows.nth(1).getByRole('link', { name: 'demo-clean-pass' })).toHaveAttribute('href', '#/interviews/demo-clean-pass');
  await expect(panel).not.toContainText('trustedRootAdded');
  await panel.scrollIntoViewIfNeeded();
  await panel.screenshot({ path: `${SHOTS}/settings-audit-trail-en.png` });
  await axeClean(page);

  const [download] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: 'Export JSON' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^audit-trail-demo-.*\.json$/);
  const exported = JSON.parse(await readFile((await download.path())!, 'utf8')) as ExportedTrail;
  expect(exported).toMatchObject({ format: 'omni-reviewer.audit-trail', environment: { id: 'demo' }, chain: { ok: true } });
  expect(exported.entries.map((e) => [e.action, e.interviewId ?? null])).toEqual([
    ['trustedRootAdded', null],
    ['opened', 'demo-clean-pass'],
  ]);
  // The export itself is recorded, and the list refreshes to show it.
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText('Downloaded');

  await page.getByLabel('Language').selectOption('es');
  const panelEs = page.locator('section.panel').filter({ has: page.getByRole('heading', { name: 'Bitácora de auditoría' }) });
  await expect(panelEs.getByTestId('audit-trail-chain')).toContainText('Cadena de hashes verificada');
  const filas = panelEs.getByTestId('audit-trail-table').locator('tbody tr');
  await expect(filas.nth(1)).toContainText('Confió en una raíz NOM-151');
  await expect(filas.nth(1)).toContainText('Todo el entorno');
  await expect(filas.nth(2)).toContainText('Abrió');
  await expect(panelEs).not.toContainText(/Opened|Whole environment|root trusted/);
  await panelEs.screenshot({ path: `${SHOTS}/settings-audit-trail-es.png` });
  await axeClean(page);
});
