import { expect, test } from './fixtures';
import { goTo, openInterview, panelsSettled } from './review-helpers';

const ID = 'demo-fraud-high';

const openedEntries = async (shell: { ipc: <T>(channel: string, input?: unknown) => Promise<T> }) =>
  (await shell.ipc<{ entries: { action: string }[] }>('interview.audit', { interviewId: ID })).entries.filter(
    (e) => e.action === 'opened',
  ).length;

test('each visit records one opening: the trail comes with it, a refresh does not repeat it, a new visit does', async ({
  page,
  shell,
}) => {
  const calls: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    // Calls made in one tick travel together to /ipc (preload/web.ts); a call made alone, to /ipc/<channel>.
    const channels =
      path === '/ipc'
        ? (request.postDataJSON() as { channel: string }[]).map((c) => c.channel)
        : path.startsWith('/ipc/')
          ? [path.slice('/ipc/'.length)]
          : [];
    calls.push(...channels.filter((c) => c.startsWith('interview.') || c === 'queue.list'));
  });

  await openInterview(page, shell, ID);
  await panelsSettled(page);
  // The opening answers with the trail, so the audit panel shows this opening without asking for it again.
  const audit = page.locator('section.panel').filter({ has: page.getByRole('heading', { name: 'Audit trail' }) });
  await expect(audit).toContainText('Opened');
  expect(calls.filter((c) => c === 'interview.open')).toHaveLength(1);
  expect(calls).not.toContain('interview.audit');
  expect(calls).not.toContain('interview.overview');
  expect(await openedEntries(shell)).toBe(1);

  // Refreshing every panel reloads the evidence; it is still the same visit.
  calls.length = 0;
  await page.getByRole('button', { name: 'Refresh all' }).click();
  await expect.poll(() => calls.includes('interview.rawIdv')).toBe(true);
  await panelsSettled(page);
  expect(calls).not.toContain('interview.open');
  expect(await openedEntries(shell)).toBe(1);

  // Leaving and coming back is a new visit, recorded again, and the queue shows it was opened.
  await goTo(page, '/interviews');
  const row = page.getByTestId('queue-row').filter({ hasText: ID });
  await expect(row).toContainText('In review');
  await goTo(page, `/interviews/${ID}`);
  await panelsSettled(page);
  await expect.poll(() => openedEntries(shell)).toBe(2);
  await expect(audit.locator('tbody tr').filter({ hasText: 'Opened' })).toHaveCount(2);
});
