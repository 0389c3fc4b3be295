import { describe, expect, it } from 'vitest';
import { MemoryVault } from '../../../main/auth/memory-vault';
import { to } from '../../helpers/destinations';

describe('MemoryVault', () => {
  it('implements the same contract in memory', async () => {
    const vault = new MemoryVault();
    await vault.setCredential(to('e'), 'integrationId', 'int-1');
    expect(await vault.credentialStatus(to('e'))).toEqual({ apiKey: 'unset', integrationId: 'set', secret: 'unset' });
    await vault.setSessionToken(to('e'), 'iv', 'tok');
    expect(await vault.hasSessionToken(to('e'), 'iv')).toBe(true);
    expect(vault.knownSecrets()).toEqual(['int-1', 'tok']);
    expect(vault.security().persistent).toBe(false);
  });
});
