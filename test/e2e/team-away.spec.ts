import pg from 'pg';
import type { TestPostgres } from '../helpers/postgres';
import { expect, test } from './fixtures';
import { openInterview, panelsSettled } from './review-helpers';

const SHOTS = '.tmp/screenshots';

test.use({ recordEngine: 'team' });

async function draftsOnServer(team: TestPostgres, database: string) {
  const client = new pg.Client({ host: team.host, port: team.port, user: team.user, database });
  await client.connect();
  try {
    return (await client.query<{ kind: string; text: string }>('select kind, text from drafts order by kind')).rows;
  } finally {
    await client.end();
  }
}

test('the team database stops mid-work: a banner says so, the draft survives a reload, and goes through once it is back', async ({
  page,
  shell,
  teamServer,
}) => {
  const team = await teamServer.server();
  // The database the shell's settings name.
  const { database } = (await shell.ipc<{ config: { database: string } }>('settings.teamDatabase')).config;
  await openInterview(page, shell, 'demo-clean-pass');
  await panelsSettled(page);
  const notes = page.getByLabel('Conference notes');
  await notes.fill('Antes del corte.');
  await expect(page.getByTestId('notes-status')).toContainText('Draft saved');
  await expect.poll(() => draftsOnServer(team, database)).toEqual([{ kind: 'notes', text: 'Antes del corte.' }]);

  team.pause();
  await notes.fill('Escrito sin la base de datos: documento legible.');
  await expect(page.getByTestId('notes-status')).toContainText('Draft saved');
  const banner = page.getByTestId('record-away');
  await expect(banner).toContainText('The team database cannot be reached');
  await expect(banner).toContainText('what you type is kept on this computer');
  await expect(banner).toContainText('1 change waits here');
  await page.screenshot({ path: `${SHOTS}/team-database-away-en.png` });

  // A reload while it is away: what is open comes back, the draft included, from this computer.
  await page.reload();
  await expect(page.getByTestId('interview-id')).toHaveText('demo-clean-pass');
  await expect(page.getByLabel('Conference notes')).toHaveValue('Escrito sin la base de datos: documento legible.');
  await expect(page.getByTestId('record-away')).toBeVisible();

  team.resume();
  await expect(page.getByTestId('record-back')).toContainText('every change that waited was saved', {
    timeout: 15_000,
  });
  await expect(page.getByTestId('record-away')).toHaveCount(0);
  expect(await draftsOnServer(team, database)).toEqual([
    { kind: 'notes', text: 'Escrito sin la base de datos: documento legible.' },
  ]);
  // Sent once: nothing waits any more.
  expect(await shell.ipc('app.recordLink')).toMatchObject({ away: false, pendingWrites: 0, engine: 'team' });
});
