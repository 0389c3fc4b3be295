import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryVault } from '../../../main/auth/memory-vault';
import { createLogger } from '../../../main/log';
import { SharedTokenRecords, sealToken, sharingVault, unsealToken } from '../../../main/record/shared-session-tokens';
import { engineFactory } from '../../helpers/record-engines';
import { to } from '../../helpers/destinations';

const TEAM_KEY = 'k3JbY1cF0m5dQ9l2yT8xV7wZ4aR6sN0pE1hG3jU5iO8=';
const TOKEN = 'session-token-of-interview-42';

describe('sealed session tokens', () => {
  it('open only with the team key, for the interview they were sealed for', () => {
    const sealed = sealToken(TEAM_KEY, 'demo', 'iv-42', TOKEN);
    expect(sealed).not.toContain(TOKEN);
    expect(unsealToken(TEAM_KEY, 'demo', 'iv-42', sealed)).toBe(TOKEN);
    expect(unsealToken(`${TEAM_KEY}x`, 'demo', 'iv-42', sealed)).toBeUndefined();
    expect(unsealToken(TEAM_KEY, 'demo', 'iv-43', sealed)).toBeUndefined();
    expect(unsealToken(TEAM_KEY, 'prod', 'iv-42', sealed)).toBeUndefined();
    expect(unsealToken(TEAM_KEY, 'demo', 'iv-42', 'not base64 at all')).toBeUndefined();
    // A fresh IV each time: the same token never seals to the same text.
    expect(sealToken(TEAM_KEY, 'demo', 'iv-42', TOKEN)).not.toBe(sealed);
  });
});

describe('a token attached by one analyst opens for another (real PostgreSQL)', () => {
  const engines = engineFactory('team');
  afterAll(() => engines.dispose());
  const quiet = createLogger({ sink: () => undefined });

  it('is stored sealed, found by the other analyst, and kept in their vault once opened', async () => {
    const record = await engines.open();
    const records = new SharedTokenRecords(record.db);
    const ana = sharingVault(new MemoryVault(), () => ({ records, teamKey: async () => TEAM_KEY }), quiet);
    const betoOwn = new MemoryVault();
    const beto = sharingVault(betoOwn, () => ({ records, teamKey: async () => TEAM_KEY }), quiet);

    await ana.setSessionTokens(to('demo'), [{ interviewId: 'iv-1', token: TOKEN }]);
    const stored = await sql<{ sealed: string }>`select sealed from shared_session_tokens`.execute(record.db);
    expect(stored.rows).toHaveLength(1);
    expect(stored.rows[0]!.sealed).not.toContain(TOKEN);

    expect(await beto.hasSessionToken(to('demo'), 'iv-1')).toBe(true);
    expect(await beto.getSessionToken(to('demo'), 'iv-1')).toBe(TOKEN);
    expect(await betoOwn.getSessionToken(to('demo'), 'iv-1')).toBe(TOKEN);
  });

  it('shares nothing without a team key, and a member with another key cannot open it', async () => {
    const record = await engines.open();
    const records = new SharedTokenRecords(record.db);
    const noKey = sharingVault(new MemoryVault(), () => ({ records, teamKey: async () => undefined }), quiet);
    await noKey.setSessionToken(to('demo'), 'iv-2', TOKEN);
    expect((await records.ids('demo')).size).toBe(0);

    const ana = sharingVault(new MemoryVault(), () => ({ records, teamKey: async () => TEAM_KEY }), quiet);
    await ana.setSessionToken(to('demo'), 'iv-3', TOKEN);
    const other = sharingVault(
      new MemoryVault(),
      () => ({ records, teamKey: async () => `${TEAM_KEY}-another` }),
      quiet,
    );
    expect(await other.getSessionToken(to('demo'), 'iv-3')).toBeUndefined();
  });
});
