import { csvLines } from './csv-download';
import pg from 'pg';
import type { Browser, Page } from '@playwright/test';
import type { AuditView } from '../../common/ipc/interview';
import type { ClaimView } from '../../common/ipc/team';
import { openRecord } from '../../main/record/open';
import {
  expect,
  onTeamDatabase,
  startShell,
  stopShell,
  test,
  type ShellFixture,
  openApp,
  testOpeningTheApp,
} from './fixtures';
import { expectAxeClean, goTo } from './review-helpers';

/** Issue #35: rows checked in the queue (click, shift-click, `x`, all in the view) and acted on together. */

const SHOTS = '.tmp/screenshots/queue-bulk';

const WORDS = {
  en: {
    select: (id: string) => `Select ${id}`,
    release: 'Release claims',
    exportCsv: 'Export CSV',
    selected: '5 selected',
    released: 'Released 5 of 5.',
    exported: 'Exported 5 of 5',
    nobodyHeld: 'Nobody held it: there was no claim to release.',
    header: 'Interview ID,Label,Session status,Risk,Review state,Awaiting second review,Held by,',
    toReview: 'To review',
  },
  es: {
    select: (id: string) => `Seleccionar ${id}`,
    release: 'Liberar asignaciones',
    exportCsv: 'Exportar CSV',
    selected: 'Seleccionadas: 5',
    released: 'Se liberaron 5 de 5.',
    exported: 'Se exportaron 5 de 5',
    nobodyHeld: 'Nadie la tenía: no había nada que liberar.',
    header: 'ID de entrevista,Etiqueta,Estado de la sesión,Riesgo,Estado de revisión,Espera segunda revisión,La tiene,',
    toReview: 'Por revisar',
  },
} as const;

/** The demo's interviews in the queue, each claimed by this analyst (as "Take next" would have). */
async function claimedQueue(shell: ShellFixture): Promise<void> {
  await shell.ipc('queue.addDemoSeeds', {});
  const seeds = await shell.ipc<{ interviewId: string }[]>('queue.demoSeeds', {});
  for (const { interviewId } of seeds) await shell.ipc('team.claim', { interviewId });
}

const rowIds = (page: Page) => page.getByTestId('queue-row').locator('td.queue-id a').allTextContents();

for (const language of ['en', 'es'] as const)
  testOpeningTheApp(
    `${language}: five rows checked by click, shift-click and x, their claims released and exported as CSV`,
    async ({ page, shell }) => {
      const w = WORDS[language];
      await page.setViewportSize({ width: 1280, height: 800 });
      await shell.ipc('settings.setPreferences', { language });
      await claimedQueue(shell);
      const claimedBefore = (await shell.ipc<ClaimView[]>('team.holders', {})).length;
      await openApp(page, shell);
      await goTo(page, '/interviews');
      const rows = page.getByTestId('queue-row');
      await expect(rows.first()).toBeVisible();
      const ids = (await rowIds(page)).slice(0, 5);

      // Click the first, shift-click the fourth: the four between; then the fifth highlighted and `x`.
      await page.getByRole('checkbox', { name: w.select(ids[0]!) }).click();
      await page.getByRole('checkbox', { name: w.select(ids[3]!) }).click({ modifiers: ['Shift'] });
      await rows.nth(4).locator('td.queue-label').click();
      await expect(rows.nth(4)).toHaveAttribute('aria-current', 'true');
      await page.keyboard.press('x');
      for (const id of ids) await expect(page.getByRole('checkbox', { name: w.select(id) })).toBeChecked();
      await expect(page.getByRole('checkbox', { name: w.select((await rowIds(page))[5]!) })).not.toBeChecked();
      await expect(page.getByTestId('bulk-bar')).toContainText(w.selected);
      await expect(page.getByTestId('queue-selection-said')).toHaveText(w.selected);
      await page.screenshot({ path: `${SHOTS}/selected-${language}-1280.png` });

      await page.getByRole('button', { name: w.release }).click();
      await expect(page.getByTestId('bulk-summary')).toContainText(w.released);
      const holders = (await shell.ipc<ClaimView[]>('team.holders', {})).map((c) => c.interviewId);
      expect(holders).toHaveLength(claimedBefore - 5);
      for (const id of ids) expect(holders).not.toContain(id);

      // The rows stay checked: the same five exported, in the screen's language.
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: w.exportCsv }).click();
      const file = await download;
      expect(file.suggestedFilename()).toMatch(language === 'es' ? /^bandeja-.*\.csv$/ : /^queue-.*\.csv$/);
      const lines = await csvLines(file);
      expect(lines[0]).toContain(w.header);
      expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(ids);
      // Nobody holds them now; each still waits to be reviewed.
      for (const line of lines.slice(1)) expect(line).toContain(`,${w.toReview},`);
      await expect(page.getByTestId('bulk-summary')).toContainText(w.exported);

      // Each interview's own trail says what was done to it.
      for (const interviewId of ids) {
        const { entries } = await shell.ipc<AuditView>('interview.audit', { interviewId });
        expect(entries.map((e) => [e.action, e.detail.what])).toEqual(
          expect.arrayContaining([
            ['released', undefined],
            ['downloaded', 'queueCsv'],
          ]),
        );
      }

      // Released again, each is refused and listed with the reason.
      await page.getByRole('button', { name: w.release }).click();
      const refused = page.getByTestId('bulk-refused').getByRole('listitem');
      await expect(refused).toHaveCount(5);
      await expect(refused.first()).toContainText(`${ids[0]}: ${w.nobodyHeld}`);
      await expectAxeClean(page);
      await page.screenshot({ path: `${SHOTS}/refused-${language}-1280.png`, fullPage: true });
      await page.setViewportSize({ width: 1024, height: 800 });
      await expect(page.getByTestId('bulk-bar')).toBeVisible();
      expect(
        await page.locator('.queue-table-scroll').evaluate((s) => s.scrollWidth - s.clientWidth),
      ).toBeLessThanOrEqual(0);
      await page.screenshot({ path: `${SHOTS}/refused-${language}-1024.png` });
      await shell.ipc('settings.setPreferences', { theme: 'dark' });
      await page.reload();
      await page.getByRole('checkbox', { name: w.select(ids[1]!) }).click();
      await expect(page.getByTestId('bulk-bar')).toBeVisible();
      await expectAxeClean(page);
      await page.screenshot({ path: `${SHOTS}/selected-${language}-1024-dark.png` });
    },
  );

test('all the rows of a view checked at once, removed together, and put back with one undo', async ({
  page,
  shell,
}) => {
  // A queue of these four only, without the demo's interviews a first run puts in it.
  await shell.ipc('settings.resetDemoData', {});
  await shell.ipc('queue.add', {
    items: ['bulk-view-1', 'bulk-view-2', 'bulk-view-3', 'other-0001'].map((interviewId) => ({ interviewId })),
  });
  await page.reload();
  await goTo(page, '/interviews');
  const rows = page.getByTestId('queue-row');
  await expect(rows).toHaveCount(4);
  await page.getByLabel('Search').fill('bulk-view');
  await expect(rows).toHaveCount(3);
  // One row checked, then the bar offers the rest of the view; the header's box clears and checks them all again.
  await page.getByRole('checkbox', { name: 'Select bulk-view-2' }).click();
  await expect(page.getByTestId('bulk-bar')).toContainText('1 selected');
  await page.getByTestId('bulk-bar').getByRole('button', { name: 'Select all 3 in this view' }).click();
  await expect(page.getByTestId('bulk-bar')).toContainText('3 selected');
  const headerBox = page.getByRole('checkbox', { name: 'Select all 3 in this view' });
  await expect(headerBox).toBeChecked();
  await headerBox.click();
  await expect(page.getByTestId('queue-selection-said')).toHaveText('No rows selected');
  await headerBox.click();
  await expect(page.getByTestId('bulk-bar')).toContainText('3 selected');
  await page.screenshot({ path: `${SHOTS}/all-in-view-en-1280.png` });

  await page.getByRole('button', { name: 'Remove from queue' }).click();
  await expect(page.getByTestId('bulk-summary')).toContainText('Removed 3 of 3 from the queue.');
  await expect(page.getByTestId('queue-selection-said')).toHaveText('No rows selected');
  await page.getByLabel('Search').fill('');
  await expect(rows).toHaveCount(1);
  const { entries } = await shell.ipc<AuditView>('interview.audit', { interviewId: 'bulk-view-2' });
  expect(entries.map((e) => e.action)).toContain('removed');

  await page.getByTestId('bulk-summary').getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByTestId('bulk-summary')).toContainText('Put back 3 of 3.');
  await expect(rows).toHaveCount(4);

  // `x` is listed with the queue's keys.
  await page.keyboard.press('?');
  await expect(
    page
      .getByRole('dialog')
      .getByRole('row')
      .filter({ hasText: 'Select or unselect the highlighted row' })
      .locator('kbd'),
  ).toHaveText('x');
});

for (const language of ['en', 'es'] as const)
  test(`${language}: the risk of checked rows read without opening them, shown in the Risk column`, async ({
    page,
    shell,
  }) => {
    const w = {
      en: {
        select: 'Select all 3 in this view',
        read: 'Read risk',
        done: 'Read the risk of 3 of 3.',
        high: 'High risk',
        unassessed: 'Not assessed',
      },
      es: {
        select: 'Seleccionar las 3 de esta vista',
        read: 'Leer el riesgo',
        done: 'Se leyó el riesgo de 3 de 3.',
        high: 'Riesgo alto',
        unassessed: 'Sin evaluar',
      },
    }[language];
    await shell.ipc('settings.setPreferences', { language });
    await shell.ipc('settings.resetDemoData', {});
    await shell.ipc('queue.addDemoSeeds', { interviewIds: ['demo-clean-pass', 'demo-fraud-high', 'demo-empty-idv'] });
    await page.reload();
    await goTo(page, '/interviews');
    const rows = page.getByTestId('queue-row');
    await expect(rows).toHaveCount(3);
    const fraudRow = rows.filter({ hasText: 'demo-fraud-high' });
    // Not read yet: the dash.
    await expect(fraudRow.locator('.queue-risk')).toHaveCount(0);
    await page.getByRole('checkbox', { name: w.select }).click();
    await page.getByTestId('bulk-bar').getByRole('button', { name: w.read }).click();
    await expect(page.getByTestId('bulk-summary')).toContainText(w.done);
    await expect(fraudRow.locator('.queue-risk')).toHaveText(w.high);
    // One no check ran on is not "low": nothing said so.
    await expect(rows.filter({ hasText: 'demo-empty-idv' }).locator('.queue-risk')).toHaveText(w.unassessed);
    // Read, not opened: the rows stay to review, and no opening is on their trails.
    const { entries } = await shell.ipc<AuditView>('interview.audit', { interviewId: 'demo-fraud-high' });
    expect(entries.map((e) => e.action)).not.toContain('opened');
    await page.screenshot({ path: `${SHOTS}/read-risk-${language}-1280.png` });
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.screenshot({ path: `${SHOTS}/read-risk-${language}-1024.png` });
  });

test('a Read risk the service rate-limits stops there and says so, with how long to wait and the rows not read', async ({
  page,
  shell,
}) => {
  await shell.ipc('settings.resetDemoData', {});
  await shell.ipc('queue.addDemoSeeds', { interviewIds: ['demo-clean-pass', 'demo-fraud-high', 'demo-empty-idv'] });
  // Longer than the app waits by itself: the first row meets it.
  await shell.demo('faults', { route: 'getRawIdvResults', kind: 'status', status: 429, retryAfterS: 600, times: 1 });
  await page.reload();
  await goTo(page, '/interviews');
  await expect(page.getByTestId('queue-row')).toHaveCount(3);
  await page.getByRole('checkbox', { name: 'Select all 3 in this view' }).click();
  await page.getByTestId('bulk-bar').getByRole('button', { name: 'Read risk' }).click();
  const summary = page.getByTestId('bulk-summary');
  // Not a success: a warning that says where it stopped; the wait counts down beside a Retry that waits for it.
  await expect(summary).toHaveClass(/notice-warn/);
  await expect(summary).toContainText('Stopped after 0 of 3: the rest were not touched.');
  const notice = page.locator('.bulk-area .panel-error');
  await expect(notice.getByTestId('retry-after')).toBeVisible();
  await expect(notice.getByRole('button', { name: 'Retry' })).toBeDisabled();
  await expect(page.getByTestId('queue-row').locator('.queue-risk')).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/read-risk-stopped-en-1280.png` });
});

/** One analyst's app on the team database, with their own login and window. */
async function analyst(browser: Browser, team: { host: string; port: number; database: string }, user: string) {
  const started = await startShell(await onTeamDatabase({}, { ...team, user }), {
    OMNI_DEMO_SIGNING_KEY: 'bulk-on-one-team-database',
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(started.fixture.appUrl);
  const shell = started.fixture;
  const { config } = await shell.ipc<{ config: Record<string, unknown> }>('settings.teamDatabase');
  const { caSet: _caSet, ...address } = config;
  await shell.ipc('settings.saveTeamDatabase', {
    config: address,
    teamKey: 'bK9vQ2mX7rB4nW8zL1cF5hJ3pD6sG0yA+eU2iO7kR4w=',
  });
  return { page, shell, close: async () => (await context.close(), await stopShell(started)) };
}

test("on a team database: a reviewer's release of a supervisor's claims is refused row by row; the supervisor hands them over", async ({
  browser,
  teamServer,
}) => {
  test.setTimeout(240_000);
  const server = await teamServer.server();
  const team = { host: server.host, port: server.port, database: await server.createDatabase('bulk_team') };
  await (await openRecord({ kind: 'team', ...team, user: 'postgres', tls: 'disable' })).close();
  const admin = new pg.Client({ host: team.host, port: team.port, user: 'postgres', database: team.database });
  await admin.connect();
  await admin.query('create role lia login in role omni_reviewer; create role sofia login in role omni_supervisor;');
  await admin.end();

  const sofia = await analyst(browser, team, 'sofia');
  const ana = await analyst(browser, team, 'lia');
  try {
    await sofia.shell.ipc('queue.addDemoSeeds', {});
    for (const interviewId of ['demo-clean-pass', 'demo-closed']) await sofia.shell.ipc('team.claim', { interviewId });
    await ana.shell.ipc('team.claim', { interviewId: 'demo-deleted' });
    const picked = ['demo-clean-pass', 'demo-closed', 'demo-deleted'];

    await goTo(ana.page, '/interviews');
    for (const id of picked) await ana.page.getByRole('checkbox', { name: `Select ${id}` }).click();
    await expect(ana.page.getByTestId('bulk-bar')).toContainText('3 selected');
    // Handing over is a supervisor's: a reviewer is not offered it.
    await expect(ana.page.getByRole('button', { name: 'Hand over to…' })).toHaveCount(0);
    await ana.page.getByRole('button', { name: 'Release claims' }).click();
    await expect(ana.page.getByTestId('bulk-summary')).toContainText('Released 1 of 3.');
    const refused = ana.page.getByTestId('bulk-refused').getByRole('listitem');
    await expect(refused).toHaveText([
      /^demo-clean-pass: Held by sofia: only they or a supervisor can release it\./,
      /^demo-closed: Held by sofia: only they or a supervisor can release it\./,
    ]);
    await expectAxeClean(ana.page);
    await ana.page.screenshot({ path: `${SHOTS}/team-refused-en-1280.png` });

    await goTo(sofia.page, '/interviews');
    for (const id of picked) await sofia.page.getByRole('checkbox', { name: `Select ${id}` }).click();
    await sofia.page.getByRole('button', { name: 'Hand over to…' }).click();
    await sofia.page.getByLabel('Hand over to', { exact: true }).selectOption('lia');
    await sofia.page.screenshot({ path: `${SHOTS}/team-hand-over-en-1280.png` });
    await sofia.page.getByRole('button', { name: 'Hand over', exact: true }).click();
    await expect(sofia.page.getByTestId('bulk-summary')).toContainText('Handed 3 of 3 over to lia.');
    const holders = await ana.shell.ipc<ClaimView[]>('team.holders', {});
    expect(holders.filter((c) => picked.includes(c.interviewId)).map((c) => [c.interviewId, c.holder])).toEqual(
      expect.arrayContaining(picked.map((id) => [id, 'lia'])),
    );
    await expect(sofia.page.getByTestId('queue-row').filter({ hasText: 'demo-closed' })).toContainText('lia');
    await expectAxeClean(sofia.page);

    await sofia.shell.ipc('settings.setPreferences', { language: 'es' });
    await sofia.page.reload();
    await goTo(sofia.page, '/interviews');
    await sofia.page.getByRole('checkbox', { name: 'Seleccionar demo-closed' }).click();
    await sofia.page.getByRole('button', { name: 'Pasar a…' }).click();
    await sofia.page.setViewportSize({ width: 1024, height: 800 });
    await sofia.page.screenshot({ path: `${SHOTS}/team-hand-over-es-1024.png` });
    // Ten columns with the holder's and the checkboxes', in Spanish: none cut off, no sideways scroll.
    expect(
      await sofia.page.locator('.queue-table-scroll').evaluate((s) => s.scrollWidth - s.clientWidth),
    ).toBeLessThanOrEqual(0);
  } finally {
    await ana.close();
    await sofia.close();
  }
});
