import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { callShell } from '../../helpers/shell-calls';
import { startWebShell, type WebShell } from '../../../main/web-shell/index';
import type { QueueEntry } from '../../../common/ipc/queue';
import type { Drafts } from '../../../common/ipc/interview';

// A session token that names no interview (no interviewId claim): attachable to any of the tests' interviews.
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJzZXNzaW9uIn0.c2lnbmF0dXJlLXJlc3RhcnQ';

const call = <T>(shell: WebShell, channel: string, input?: unknown) => callShell<T>(shell.appUrl, channel, input);

describe('review queue and drafts across a restart of the web shell', () => {
  let dataDir = '';
  afterAll(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps the queue, its local states and the drafts; the token is in no file but the vault’s sealed value', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'omni-review-restart-'));
    const first = await startWebShell({ port: 0, dataDir });
    try {
      // Without an OS keyring the vault keeps secrets in memory until the user accepts file storage (its policy).
      await call(first, 'settings.acceptWeakStorage');
      await call(first, 'queue.importText', {
        text: `interviewId,sessionToken\nrestart-1,${JWT}\nrestart-2,`,
        format: 'csv',
      });
      await call(first, 'queue.setState', { interviewId: 'restart-2', state: 'decided' });
      await call(first, 'interview.saveDraft', {
        interviewId: 'restart-1',
        kind: 'notes',
        text: 'Pendiente de confirmar',
      });
    } finally {
      await first.close();
    }
    // Not in any byte the app wrote: the settings file, the review database's files (its write-ahead log included).
    const files = (await readdir(dataDir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile());
    expect(files.length).toBeGreaterThan(10);
    for (const file of files)
      expect((await readFile(join(file.parentPath, file.name))).includes(JWT), file.name).toBe(false);

    const second = await startWebShell({ port: 0, dataDir });
    try {
      // Beside the demo interviews a first run starts with.
      const queue = (await call<QueueEntry[]>(second, 'queue.list')).filter((e) =>
        e.interviewId.startsWith('restart-'),
      );
      expect(queue.map((e) => [e.interviewId, e.localState, e.hasSessionToken])).toEqual([
        ['restart-1', 'toReview', true],
        ['restart-2', 'decided', false],
      ]);
      const drafts = await call<Drafts>(second, 'interview.drafts', { interviewId: 'restart-1' });
      expect(drafts.notes?.text).toBe('Pendiente de confirmar');
    } finally {
      await second.close();
    }
  });
});
