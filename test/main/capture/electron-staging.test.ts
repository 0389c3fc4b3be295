import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAGE_PATH_CHANNEL } from '../../../common/ipc/capture';
import { registerStagePathChannel } from '../../../main/capture/electron-staging';
import { StagedFiles } from '../../../main/capture/staging';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'capture-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('Electron stage-path channel', () => {
  it('registers a picked file by path for the app frame only, and says when the path is not a readable file', async () => {
    const handlers = new Map<string, (event: unknown, path: unknown) => Promise<unknown>>();
    const ipcMain = {
      handle: (channel: string, fn: (event: unknown, path: unknown) => Promise<unknown>) => handlers.set(channel, fn),
    };
    const staged = new StagedFiles(dir);
    registerStagePathChannel(ipcMain as never, {
      staged,
      isAppSender: (event) => (event as unknown as { app: boolean }).app,
    });
    const handle = handlers.get(STAGE_PATH_CHANNEL)!;
    const path = join(dir, 'picked.webm');
    await writeFile(path, 'abcd');
    const ok = (await handle({ app: true }, path)) as {
      ok: true;
      data: { stagedFileId: string; name: string; size: number };
    };
    expect(ok).toMatchObject({ ok: true, data: { name: 'picked.webm', size: 4 } });
    expect(staged.get(ok.data.stagedFileId)?.path).toBe(path);
    expect(await handle({ app: false }, path)).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_SENDER' } });
    expect(await handle({ app: true }, 42)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(await handle({ app: true }, join(dir, 'missing.webm'))).toMatchObject({
      ok: false,
      error: { code: 'FILE_UNREADABLE' },
    });
    expect(await handle({ app: true }, dir)).toMatchObject({ ok: false, error: { code: 'FILE_UNREADABLE' } });
  });
});
