import pg from 'pg';
import type { Browser, Page } from '@playwright/test';
import { openRecord } from '../../main/record/open';
import { expect, onTeamDatabase, startShell, stopShell, test, type ShellFixture } from './fixtures';
import { goTo, openInterview, panelsSettled } from './review-helpers';

const SHOTS = '.tmp/screenshots';

/**
 * Two analysts on one team database, each with their own web shell, data folder and PostgreSQL login: ana
 * (reviewer) and beto (supervisor). What one does, the other's screen shows; four eyes is the database's rule.
 */
// One after the other, in one worker: each starts two web shells, and the second beside the first made the first's
// half-second live update take 1.5 s on a loaded CI machine.
test.describe.configure({ mode: 'default', timeout: 240_000 });

async function analyst(browser: Browser, team: { host: string; port: number; database: string }, user: string) {
  // Each analyst's app has its own demo service; sharing its signing key makes them one service to the tokens.
  const started = await startShell(await onTeamDatabase({}, { ...team, user }), {
    OMNI_DEMO_SIGNING_KEY: 'two-analysts-one-demo-service',
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(started.fixture.appUrl);
  return {
    ...started,
    page,
    shell: started.fixture,
    close: async () => (await context.close(), await stopShell(started)),
  };
}

async function sql(team: { host: string; port: number; database: string }, text: string) {
  const client = new pg.Client({ host: team.host, port: team.port, user: 'postgres', database: team.database });
  await client.connect();
  try {
    return (await client.query(text)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}

/** The team's key for sealed session tokens, the same in each analyst's vault (Settings > Team database). */
const TEAM_KEY = 'tK9vQ2mX7rB4nW8zL1cF5hJ3pD6sG0yA+eU2iO7kR4w=';

async function keepTeamKey(shell: ShellFixture) {
  const { config } = await shell.ipc<{ config: Record<string, unknown> }>('settings.teamDatabase');
  const { caSet: _caSet, ...address } = config;
  await shell.ipc('settings.saveTeamDatabase', { config: address, teamKey: TEAM_KEY });
}

const interviewShown = (page: Page) => page.getByTestId('interview-id').textContent();

test('two analysts share one queue: take next, live claims, four eyes, and the database away mid-work', async ({
  browser,
  teamServer,
}) => {
  const server = await teamServer.server();
  const team = { host: server.host, port: server.port, database: await server.createDatabase('two_analysts') };
  // The team's admin: the schema made by the owner (here the superuser), one login per analyst.
  await (await openRecord({ kind: 'team', ...team, user: 'postgres', tls: 'disable' })).close();
  await sql(team, 'create role ana login in role omni_reviewer; create role beto login in role omni_supervisor;');

  const ana = await analyst(browser, team, 'ana');
  const beto = await analyst(browser, team, 'beto');
  try {
    // Ana imports the interviews (their session tokens into her vault, and sealed into the team's record).
    for (const { shell } of [ana, beto]) await keepTeamKey(shell);
    await ana.shell.ipc('queue.addDemoSeeds', {});
    expect(await sql(team, 'select count(*)::int as n from shared_session_tokens')).not.toEqual([{ n: 0 }]);
    for (const { page } of [ana, beto]) {
      await goTo(page, '/interviews');
      await expect(page.getByTestId('queue-row').first()).toBeVisible();
    }

    // Both press "Take next" at once: two different interviews, each held by the one who took it.
    await Promise.all([ana.page.getByTestId('take-next').click(), beto.page.getByTestId('take-next').click()]);
    await expect(ana.page.getByTestId('interview-id')).toBeVisible();
    await expect(beto.page.getByTestId('interview-id')).toBeVisible();
    const [anas, betos] = [await interviewShown(ana.page), await interviewShown(beto.page)];
    expect(anas).not.toBe(betos);
    const holders = await sql(team, 'select interview_id, holder from claims order by holder');
    expect(holders).toEqual([
      { interview_id: anas, holder: 'ana' },
      { interview_id: betos, holder: 'beto' },
    ]);

    // Beto's queue shows Ana's next claim within half a second.
    await goTo(beto.page, '/interviews');
    await expect(beto.page.getByTestId('queue-row').filter({ hasText: anas! })).toContainText('ana');
    const taken = await ana.shell.ipc<{ interviewId: string }>('team.takeNext');
    const since = Date.now();
    await expect(beto.page.getByTestId('queue-row').filter({ hasText: taken.interviewId })).toContainText('ana', {
      timeout: 5_000,
    });
    expect(Date.now() - since).toBeLessThan(500);
    await beto.page.screenshot({ path: `${SHOTS}/team-queue-claims-en.png` });
    await beto.shell.ipc('settings.setPreferences', { language: 'es' });
    await beto.page.reload();
    await expect(beto.page.getByTestId('queue-row').filter({ hasText: anas! })).toContainText('ana');
    await expect(beto.page.getByTestId('take-next')).toContainText('Tomar la siguiente');
    await beto.page.screenshot({ path: `${SHOTS}/team-queue-claims-es.png` });
    await beto.shell.ipc('settings.setPreferences', { language: 'en' });
    await beto.page.reload();
    for (const id of [anas!, taken.interviewId]) await ana.shell.ipc('team.release', { interviewId: id });
    await beto.shell.ipc('team.release', { interviewId: betos });

    // Four eyes: Ana's approval of a high-risk interview is a proposal; she cannot confirm it, Beto can.
    await openInterview(ana.page, ana.shell, 'demo-fraud-high');
    await panelsSettled(ana.page);
    await ana.page.getByRole('button', { name: 'Approve', exact: true }).click();
    const dialog = ana.page.getByRole('dialog');
    await dialog.getByLabel('Reason (required)').fill('Fraud signals explained by the branch; customer known.');
    await dialog.getByRole('checkbox').check();
    await dialog.getByRole('button', { name: 'Record decision' }).click();
    await expect(dialog.getByTestId('decision-recorded')).toContainText('Recorded as a proposal');
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await expect(ana.page.getByTestId('second-review')).toContainText('Waiting for another member');
    await expect(ana.page.getByTestId('confirm-proposal')).toHaveCount(0);
    await expect(
      ana.shell.ipc('interview.reviewDecision', {
        interviewId: 'demo-fraud-high',
        verdict: 'confirmed',
        reason: 'My own proposal',
      }),
    ).rejects.toThrow();
    expect(await sql(team, "select status from decisions where interview_id = 'demo-fraud-high'")).toEqual([
      { status: 'proposed' },
    ]);

    // Beto never attached its token: it opens from the team's sealed copy with the team key.
    await goTo(beto.page, '/interviews/demo-fraud-high');
    await expect(beto.page.getByTestId('second-review')).toContainText('you can confirm or overturn it');
    await panelsSettled(beto.page);
    await beto.page.screenshot({ path: `${SHOTS}/team-four-eyes-en.png` });
    await beto.shell.ipc('settings.setPreferences', { language: 'es' });
    await beto.page.reload();
    await expect(beto.page.getByTestId('second-review')).toContainText('puedes confirmarla o revertirla');
    await panelsSettled(beto.page);
    await beto.page.screenshot({ path: `${SHOTS}/team-four-eyes-es.png` });
    // The supervisor's screen while the proposal waits and Ana holds an interview.
    await ana.shell.ipc('team.claim', { interviewId: 'demo-clean-pass' });
    await goTo(beto.page, '/team');
    await expect(beto.page.getByTestId('team-proposals')).toContainText('demo-fraud-high');
    await expect(beto.page.getByTestId('team-holders')).toContainText('ana');
    await beto.page.screenshot({ path: `${SHOTS}/team-supervisor-waiting-es.png` });
    await beto.shell.ipc('settings.setPreferences', { language: 'en' });
    await beto.page.reload();
    await goTo(beto.page, '/interviews/demo-fraud-high');
    await expect(beto.page.getByTestId('second-review')).toContainText('you can confirm or overturn it');
    await beto.page.getByTestId('confirm-proposal').click();
    const review = beto.page.getByRole('dialog');
    await review.getByLabel('Your reason').fill('Checked the branch report: consistent.');
    await review.getByRole('button', { name: 'Confirm proposal' }).click();
    await expect(review).toHaveCount(0);
    await expect(beto.page.getByTestId('reviewed-by')).toContainText('Confirmed by beto (proposed by ana)');
    expect(
      await sql(team, "select status, decided_by, reviewed_by from decisions where interview_id = 'demo-fraud-high'"),
    ).toEqual([{ status: 'confirmed', decided_by: 'ana', reviewed_by: 'beto' }]);
    // Ana's screen hears of it too.
    await expect(ana.page.getByTestId('reviewed-by')).toContainText('Confirmed by beto', { timeout: 5_000 });

    // The supervisor's screen.
    await goTo(beto.page, '/team');
    await expect(beto.page.getByTestId('team-who')).toContainText('beto');
    await expect(beto.page.getByTestId('team-per-day')).toContainText('ana');
    await expect(beto.page.getByTestId('team-audit-chain')).toContainText('Hash chain verified');
    await beto.page.screenshot({ path: `${SHOTS}/team-supervisor-en.png`, fullPage: true });
    await beto.shell.ipc('settings.setPreferences', { language: 'es' });
    await beto.page.reload();
    await expect(beto.page.getByTestId('team-audit-chain')).toContainText('Cadena de hashes verificada');
    await beto.page.screenshot({ path: `${SHOTS}/team-supervisor-es.png`, fullPage: true });

    // The database stops mid-work: Ana's draft is kept on her computer and goes through once it is back.
    await openInterview(ana.page, ana.shell, 'demo-clean-pass');
    await panelsSettled(ana.page);
    server.pause();
    const notes = ana.page.getByLabel('Conference notes');
    await notes.fill('Escrito con la base de datos detenida.');
    await expect(ana.page.getByTestId('record-away')).toBeVisible({ timeout: 15_000 });
    server.resume();
    await expect(ana.page.getByTestId('record-back')).toBeVisible({ timeout: 20_000 });
    expect(await sql(team, "select text from drafts where interview_id = 'demo-clean-pass'")).toEqual([
      { text: 'Escrito con la base de datos detenida.' },
    ]);
  } finally {
    await ana.close();
    await beto.close();
  }
});

// Logins of their own: the team's server, and its roles, are shared by the tests of one worker.
test("a team's queue views: who holds what, and a view one analyst shares with the others", async ({
  browser,
  teamServer,
}) => {
  const server = await teamServer.server();
  const team = { host: server.host, port: server.port, database: await server.createDatabase('team_views') };
  await (await openRecord({ kind: 'team', ...team, user: 'postgres', tls: 'disable' })).close();
  await sql(team, 'create role carla login in role omni_reviewer; create role dani login in role omni_reviewer;');
  const ana = await analyst(browser, team, 'carla');
  const beto = await analyst(browser, team, 'dani');
  try {
    await ana.shell.ipc('queue.addDemoSeeds', {});
    for (const id of ['demo-clean-pass', 'demo-fraud-high']) await ana.shell.ipc('team.claim', { interviewId: id });
    await goTo(beto.page, '/interviews');
    const betoRows = beto.page.getByTestId('queue-row');
    await expect(betoRows.filter({ hasText: 'demo-clean-pass' })).toContainText('carla');
    await beto.page.getByLabel('View', { exact: true }).selectOption({ label: 'Unclaimed, to review' });
    await expect(beto.page.getByLabel('Held by', { exact: true })).toHaveValue('unclaimed');
    await expect(betoRows.filter({ hasText: 'demo-clean-pass' })).toHaveCount(0);
    await expect(betoRows.first()).toContainText('Nobody');

    // Carla keeps hers as a view and shares it; Dani finds it among the team's, and it shows him his own.
    await goTo(ana.page, '/interviews');
    await ana.page.getByLabel('View', { exact: true }).selectOption({ label: 'Held by me' });
    await expect(ana.page.getByTestId('queue-row')).toHaveCount(2);
    await ana.page.getByLabel('Sort by').selectOption('id');
    await ana.page.getByRole('button', { name: 'Save view…' }).click();
    await ana.page.getByLabel('Name of the view').fill('Mine by id');
    await ana.page.getByLabel('Share with the team').check();
    await ana.page.getByRole('button', { name: 'Save view', exact: true }).click();
    await expect(ana.page.getByRole('status').filter({ hasText: 'View “Mine by id” saved.' })).toBeVisible();
    expect(await sql(team, 'select owner, name, shared from saved_views')).toEqual([
      { owner: 'carla', name: 'Mine by id', shared: true },
    ]);

    await beto.page.reload();
    const shared = beto.page.getByLabel('View', { exact: true });
    await expect(shared.locator('optgroup[label="Shared by the team"] option')).toHaveText(['Mine by id (by carla)']);
    await beto.shell.ipc('team.claim', { interviewId: 'demo-closed' });
    await shared.selectOption({ label: 'Mine by id (by carla)' });
    await expect(betoRows).toHaveCount(1);
    await expect(betoRows.first()).toContainText('demo-closed');
    // Not his to delete.
    await expect(beto.page.getByRole('button', { name: 'Delete view' })).toHaveCount(0);
    await beto.page.screenshot({ path: `${SHOTS}/team-queue-views-en.png` });
    await beto.shell.ipc('settings.setPreferences', { language: 'es' });
    await beto.page.reload();
    await beto.page.getByLabel('Vista', { exact: true }).selectOption({ label: 'Sin tomar, por revisar' });
    await expect(betoRows.filter({ hasText: 'demo-closed' })).toHaveCount(0);
    await expect(
      beto.page.getByLabel('Vista', { exact: true }).locator('optgroup[label="Compartidas por el equipo"] option'),
    ).toHaveText(['Mine by id (de carla)']);
    // Seven columns in Spanish stay inside the queue's panel.
    const overflow = await beto.page
      .locator('.queue-table')
      .evaluate(
        (table) => table.getBoundingClientRect().right - table.closest('.panel')!.getBoundingClientRect().right,
      );
    expect(overflow).toBeLessThanOrEqual(0);
    await beto.page.screenshot({ path: `${SHOTS}/team-queue-views-es.png` });
  } finally {
    await ana.close();
    await beto.close();
  }
});

test('a claim binds: only its holder decides; a supervisor releases it, then another decides; a proposal shows as such', async ({
  browser,
  teamServer,
}) => {
  const server = await teamServer.server();
  const team = { host: server.host, port: server.port, database: await server.createDatabase('binding_claims') };
  await (await openRecord({ kind: 'team', ...team, user: 'postgres', tls: 'disable' })).close();
  await sql(
    team,
    'create role elena login in role omni_reviewer; create role fede login in role omni_reviewer; create role gabi login in role omni_supervisor;',
  );
  const elena = await analyst(browser, team, 'elena');
  const fede = await analyst(browser, team, 'fede');
  const gabi = await analyst(browser, team, 'gabi');
  const notesAt = async (who: typeof fede, id: string) =>
    ((await (await fetch(`${who.shell.demoUrl}/__demo/interviews/${id}`)).json()) as { notes: unknown[] }).notes.length;
  try {
    for (const { shell } of [elena, fede, gabi]) await keepTeamKey(shell);
    await elena.shell.ipc('queue.addDemoSeeds', {});
    // Elena opens an interview: she holds it while it is open.
    await goTo(elena.page, '/interviews/demo-clean-pass');
    await expect.poll(() => sql(team, 'select holder from claims')).toEqual([{ holder: 'elena' }]);
    // "Decided" with no decision on file is the database's to refuse; the refusal is said under the header's facts.
    await panelsSettled(elena.page);
    await elena.page.getByTestId('local-state').getByRole('radio', { name: 'Decided' }).click();
    await expect(elena.page.getByTestId('local-state-refusal')).toContainText('only once its decision is recorded');
    await expect(elena.page.getByTestId('local-state').getByRole('radio', { name: 'In review' })).toBeChecked();
    await elena.page.screenshot({ path: `${SHOTS}/team-decided-refused-en.png` });

    // Fede sees who holds it, and his rejection is refused by the database, naming her; his service gets no note.
    await goTo(fede.page, '/interviews/demo-clean-pass');
    await expect(fede.page.getByTestId('claim-held')).toContainText('elena');
    await panelsSettled(fede.page);
    const before = await notesAt(fede, 'demo-clean-pass');
    await fede.page.getByRole('button', { name: 'Reject', exact: true }).click();
    const dialog = fede.page.getByRole('dialog');
    await dialog.getByLabel('Reason (required)').fill('The selfie is a photo of a screen.');
    await dialog.getByRole('button', { name: 'Record decision' }).click();
    await expect(dialog.getByRole('alert')).toContainText(/Held by elena since \d\d:\d\d/);
    await fede.page.screenshot({ path: `${SHOTS}/team-claim-binds-en.png` });
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    expect(await notesAt(fede, 'demo-clean-pass')).toBe(before);
    expect(await sql(team, 'select count(*)::int as n from decisions')).toEqual([{ n: 0 }]);

    // The supervisor releases Elena's claim (audited with whose it was); now Fede decides, and the note goes.
    expect(await gabi.shell.ipc('team.release', { interviewId: 'demo-clean-pass' })).toEqual({ released: true });
    await goTo(elena.page, '/interviews');
    const decided = await fede.shell.ipc<{ status: string }>('interview.decide', {
      interviewId: 'demo-clean-pass',
      decision: 'reject',
      reason: 'The selfie is a photo of a screen.',
      acknowledgeHighFindings: false,
    });
    expect(decided.status).toBe('final');
    expect(await notesAt(fede, 'demo-clean-pass')).toBe(before + 1);
    expect(
      await sql(
        team,
        "select detail->>'of' as of, actor from audit_entries where action = 'released' and detail->>'of' is not null",
      ),
    ).toEqual([{ of: 'elena', actor: 'gabi' }]);
    // A second final decision is refused, and nothing more is sent.
    await fede.shell.ipc('team.claim', { interviewId: 'demo-clean-pass' });
    await expect(
      fede.shell.ipc('interview.decide', {
        interviewId: 'demo-clean-pass',
        decision: 'approve',
        reason: 'Changed my mind',
        acknowledgeHighFindings: true,
      }),
    ).rejects.toThrow(/ALREADY_DECIDED/);
    expect(await notesAt(fede, 'demo-clean-pass')).toBe(before + 1);

    // Elena proposes approving a high-risk interview; a final decision over the waiting proposal is refused.
    await elena.shell.ipc('interview.decide', {
      interviewId: 'demo-fraud-high',
      decision: 'approve',
      reason: 'Known customer.',
      acknowledgeHighFindings: true,
    });
    const elenaNotes = await notesAt(elena, 'demo-fraud-high');
    await expect(
      elena.shell.ipc('interview.decide', {
        interviewId: 'demo-fraud-high',
        decision: 'reject',
        reason: 'On second thought',
        acknowledgeHighFindings: false,
      }),
    ).rejects.toThrow(/PROPOSAL_WAITING/);
    expect(await notesAt(elena, 'demo-fraud-high')).toBe(elenaNotes);

    // Everyone's queue says it is proposed, waiting for a second review, in both languages.
    await goTo(fede.page, '/interviews');
    const row = fede.page.getByTestId('queue-row').filter({ hasText: 'demo-fraud-high' });
    await expect(row).toContainText('Proposedwaiting for a second review');
    await row.scrollIntoViewIfNeeded();
    await fede.page.screenshot({ path: `${SHOTS}/team-proposed-en.png` });
    await fede.shell.ipc('settings.setPreferences', { language: 'es' });
    await fede.page.reload();
    await expect(row).toContainText('Propuestaen espera de segunda revisión');
    await row.scrollIntoViewIfNeeded();
    // The longer state stays inside the queue's panel.
    const overflow = await fede.page
      .locator('.queue-table')
      .evaluate(
        (table) => table.getBoundingClientRect().right - table.closest('.panel')!.getBoundingClientRect().right,
      );
    expect(overflow).toBeLessThanOrEqual(0);
    await fede.page.screenshot({ path: `${SHOTS}/team-proposed-es.png` });

    // The owner rewrites an entry behind the running apps: every screen raises the alarm.
    await sql(
      team,
      `alter table audit_entries disable trigger audit_entries_append_only;
       update audit_entries set detail = '{"forged":true}' where seq = 1;
       alter table audit_entries enable trigger audit_entries_append_only;`,
    );
    await expect(fede.page.getByTestId('trail-alarm')).toContainText('a espaldas de esta aplicación', {
      timeout: 10_000,
    });
    await fede.page.screenshot({ path: `${SHOTS}/team-trail-alarm-es.png` });
    await goTo(elena.page, '/settings');
    await expect(elena.page.getByTestId('trail-alarm')).toContainText('changed behind this app', { timeout: 10_000 });
    await elena.page.screenshot({ path: `${SHOTS}/team-trail-alarm-en.png` });
    // The supervisor's screen says where the chain stands, the checkpoints, and what four eyes trusts.
    await goTo(gabi.page, '/team');
    await expect(gabi.page.getByTestId('team-audit-chain')).toContainText('changed behind this app');
    await expect(gabi.page.getByTestId('team-checkpoints')).toContainText('No checkpoint yet');
    await gabi.page.getByTestId('team-checkpoints').scrollIntoViewIfNeeded();
    await gabi.page.screenshot({ path: `${SHOTS}/team-chain-rewritten-en.png` });
  } finally {
    await elena.close();
    await fede.close();
    await gabi.close();
  }
});
