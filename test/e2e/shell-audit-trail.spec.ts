import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { axeOf } from './axe';
import type { Page } from '@playwright/test';
import { entryHash, GENESIS_HASH } from '../../main/record/audit-chain';
import type { AuditEntry } from '../../common/views';
import { expect, test, openApp, testOpeningTheApp } from './fixtures';

const SHOTS = '.tmp/screenshots';

async function axeClean(page: Page) {
  const { violations } = await axeOf(page).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

interface ExportedTrail {
  format: string;
  environment: { id: string };
  chain: { ok: boolean };
  entries: { seq: number; action: string; interviewId?: string; environment: string; hash: string }[];
}

test('Settings lists the whole environment audit trail newest first, with a trusted root that belongs to no interview, and exports it', async ({
  page,
  shell,
}) => {
  await shell.ipc('queue.addDemoSeeds', {});
  await shell.ipc('interview.open', { interviewId: 'demo-clean-pass' });
  const rootPem = await (await fetch(`${shell.demoUrl}/__demo/nom151-root.pem`)).text();
  await shell.ipc('nom151.addTrustedRoot', { pem: rootPem });

  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: /^Settings/ })
    .click();
  const panel = page.locator('section.panel').filter({ has: page.getByRole('heading', { name: 'Audit trail' }) });
  await expect(panel.getByTestId('audit-trail-chain')).toContainText('Hash chain verified');
  const rows = panel.getByTestId('audit-trail-table').locator('tbody tr');
  await expect(rows).toHaveCount(2);
  // Newest first: the trusted root, which no interview screen can show, then the interview that was opened.
  await expect(rows.nth(0)).toContainText('NOM-151 root trusted');
  await expect(rows.nth(0)).toContainText('Whole environment');
  await expect(rows.nth(0)).toContainText('SHA-256');
  await expect(rows.nth(1)).toContainText('Opened');
  await expect(rows.nth(1).getByRole('link', { name: 'demo-clean-pass' })).toHaveAttribute(
    'href',
    '#/interviews/demo-clean-pass',
  );
  await expect(panel).not.toContainText('trustedRootAdded');
  await panel.scrollIntoViewIfNeeded();
  await panel.screenshot({ path: `${SHOTS}/settings-audit-trail-en.png` });
  await axeClean(page);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    panel.getByRole('button', { name: 'Export JSON' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^audit-trail-demo-.*\.json$/);
  const exported = JSON.parse(await readFile((await download.path())!, 'utf8')) as ExportedTrail;
  expect(exported).toMatchObject({
    format: 'omni-reviewer.audit-trail',
    environment: { id: 'demo' },
    chain: { ok: true },
  });
  expect(exported.entries.map((e) => [e.action, e.interviewId ?? null])).toEqual([
    ['trustedRootAdded', null],
    ['opened', 'demo-clean-pass'],
  ]);
  // The export itself is recorded, and the list refreshes to show it.
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText('Downloaded');

  await page.getByLabel('Language').selectOption('es');
  const panelEs = page
    .locator('section.panel')
    .filter({ has: page.getByRole('heading', { name: 'Bitácora de auditoría' }) });
  await expect(panelEs.getByTestId('audit-trail-chain')).toContainText('Cadena de hashes verificada');
  const filas = panelEs.getByTestId('audit-trail-table').locator('tbody tr');
  await expect(filas.nth(1)).toContainText('Confió en una raíz NOM-151');
  await expect(filas.nth(1)).toContainText('Todo el ambiente');
  await expect(filas.nth(0)).toContainText('Contenido: Bitácora del ambiente (JSON)');
  await expect(filas.nth(2)).toContainText('Abrió');
  await expect(panelEs).not.toContainText(/Opened|Whole environment|root trusted/);
  await panelEs.screenshot({ path: `${SHOTS}/settings-audit-trail-es.png` });
  await axeClean(page);
});

testOpeningTheApp(
  'in Spanish, the interview panel and Settings show one audit table whose details are all in Spanish',
  async ({ page, shell }) => {
    const interviewId = 'demo-clean-pass';
    await shell.ipc('settings.setPreferences', { language: 'es' });
    await shell.ipc('queue.addDemoSeeds', {});
    await shell.ipc('interview.recordPlay', { interviewId, positionSeconds: 75 });
    await shell.ipc('interview.saveFile', {
      interviewId,
      what: 'contract',
      documentId: 'demo-clean-pass-credito',
      suggestedName: 'demo-clean-pass-credito.pdf',
      mimeType: 'application/pdf',
      dataBase64: Buffer.from('%PDF-1.4\n').toString('base64'),
    });
    await shell.ipc('interview.decide', {
      interviewId,
      decision: 'requestNewCapture',
      reason: 'La foto del frente está borrosa',
    });
    await shell.ipc('validation.validateRfc', { rfc: 'XAXX010101000' });
    await openApp(page, shell);

    await page.evaluate((id) => (window.location.hash = `#/interviews/${id}`), interviewId);
    const panel = page
      .locator('section.panel')
      .filter({ has: page.getByRole('heading', { name: 'Bitácora', exact: true }) });
    const table = panel.getByTestId('audit-table');
    await expect(table.locator('tbody tr', { hasText: 'Decidió' })).toContainText(
      'Decisión: Solicitar nueva captura · Motivo: La foto del frente está borrosa · Hallazgos de severidad alta reconocidos: ninguno',
    );
    await expect(table.locator('tbody tr', { hasText: 'Descargó' })).toContainText(
      'Contenido: Contrato · ID del documento: demo-clean-pass-credito · Tamaño: 9 B · Nombre del archivo: demo-clean-pass-credito.pdf',
    );
    await expect(table.locator('tbody tr', { hasText: 'Reprodujo' })).toContainText('Posición: 1 min 15 s');
    await expect(table).not.toContainText(
      /\b(decision|reason|acknowledgedFindings|what|documentId|bytes|name|positionSeconds): /,
    );
    // The one table keeps its headers and its scroll region named by the panel's heading.
    await expect(table.locator('thead th[scope="col"]')).toHaveText(['#', 'Hora', 'Acción', 'Detalle', 'Ambiente']);
    await expect(panel.getByRole('region', { name: 'Bitácora', exact: true })).toBeVisible();
    await panel.scrollIntoViewIfNeeded();
    await panel.screenshot({ path: `${SHOTS}/interview-audit-es.png` });
    await axeClean(page);

    await page
      .getByRole('navigation', { name: 'Navegación principal' })
      .getByRole('link', { name: /^Configuración/ })
      .click();
    const trail = page
      .locator('section.panel')
      .filter({ has: page.getByRole('heading', { name: 'Bitácora de auditoría' }) });
    const rows = trail.getByTestId('audit-trail-table').locator('tbody tr');
    // Newest first: opening the interview on screen came after the RFC check, which belongs to no interview.
    await expect(rows.nth(0)).toContainText('Abrió');
    await expect(rows.nth(1)).toContainText('Validó');
    await expect(rows.nth(1)).toContainText('Todo el ambiente');
    await expect(rows.nth(1)).toContainText('Tipo: RFC · RFC válido: Sí');
    await expect(trail.getByTestId('audit-trail-table').locator('thead th[scope="col"]')).toHaveText([
      '#',
      'Hora',
      'Acción',
      'Entrevista',
      'Detalle',
    ]);
    await expect(trail.getByRole('region', { name: 'Bitácora de auditoría' })).toBeVisible();
    await expect(trail).not.toContainText(/\b(kind|validRFC|decision|documentId|positionSeconds): /);
    await trail.scrollIntoViewIfNeeded();
    await trail.screenshot({ path: `${SHOTS}/settings-audit-details-es.png` });
    await axeClean(page);
  },
);

/** A valid chain of `count` notes, as an earlier version of the app kept it: inside the settings file. */
function legacyTrail(count: number): AuditEntry[] {
  const entries: AuditEntry[] = [];
  let prevHash = GENESIS_HASH;
  for (let seq = 1; seq <= count; seq++) {
    const body = {
      seq,
      at: new Date(Date.UTC(2026, 0, 1) + seq * 60_000).toISOString(),
      environment: 'demo',
      interviewId: `past-${seq}`,
      action: 'noted' as const,
      detail: { text: `Note ${seq}` },
      prevHash,
    };
    prevHash = entryHash(body);
    entries.push({ ...body, hash: prevHash });
  }
  return entries;
}

test.describe('a long trail left in the settings file by an earlier version', () => {
  test.use({ storeFiles: { 'omni-reviewer': JSON.stringify({ auditTrail: legacyTrail(5000) }) } });

  test('is imported into the review record at start, and Settings shows all of it drawing only the rows in view', async ({
    page,
    shell,
  }) => {
    expect(JSON.parse(await readFile(join(shell.dataDir, 'omni-reviewer.json'), 'utf8'))).not.toHaveProperty(
      'auditTrail',
    );

    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: /^Settings/ })
      .click();
    const panel = page.locator('section.panel').filter({ has: page.getByRole('heading', { name: 'Audit trail' }) });
    await expect(panel.getByTestId('audit-trail-chain')).toContainText('Hash chain verified');
    await expect(panel.getByTestId('audit-trail-chain')).toContainText('5,000 entries');
    const table = panel.getByTestId('audit-trail-table');
    await expect(table).toHaveAttribute('aria-rowcount', '5001');
    const rows = table.locator('tbody tr:not(.virtual-spacer)');
    await expect(rows.first()).toContainText('Note 5000');
    expect(await rows.count()).toBeLessThan(60);

    // The oldest entry is at the end of the scroll, drawn when it comes into view.
    await panel.locator('.audit-trail-scroll').evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await expect(rows.last()).toContainText('Note 1');
    await expect(rows.last()).toHaveAttribute('aria-rowindex', '5001');
    expect(await rows.count()).toBeLessThan(60);
    await panel.screenshot({ path: `${SHOTS}/settings-audit-trail-5000-end.png` });
    await axeClean(page);
  });
});
