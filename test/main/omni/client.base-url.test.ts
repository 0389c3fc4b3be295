import { describe, expect, it } from 'vitest';
import { MemoryVault } from '../../../main/auth/memory-vault';
import { createLogger } from '../../../main/log';
import { OmniClient, endpointUrl } from '../../../main/omni/client';

// Red team 7, finding 4: a base URL ending in "#" or "?x=" cut the endpoint's path off, so the base alone chose
// the path main requested. Each endpoint's address now keeps the configured origin and path prefix.

describe('endpoint addresses under the configured base', () => {
  it.each([
    ['https://omni.example', 'https://omni.example/omni/api-key'],
    ['https://omni.example/', 'https://omni.example/omni/api-key'],
    ['https://omni.example/api//', 'https://omni.example/api/omni/api-key'],
    ['http://127.0.0.1:4000/prefix', 'http://127.0.0.1:4000/prefix/omni/api-key'],
  ])('%s gives %s', (base, url) => expect(endpointUrl(base, '/omni/api-key')).toBe(url));

  it.each([
    'http://127.0.0.1:47002/admin/users.json#',
    'http://127.0.0.1:47002/admin/users.json?',
    'https://omni.example/x?a=1',
    'https://omni.example/#/x',
    'https://user:pw@omni.example/',
    'ftp://omni.example/',
    'not a url',
  ])('%s gives none', (base) => expect(endpointUrl(base, '/omni/api-key')).toBeUndefined());

  it('a client whose base has a fragment sends nothing and answers INVALID_ENVIRONMENT', async () => {
    const seen: string[] = [];
    const client = new OmniClient({
      env: {
        id: 'custom',
        baseUrl: 'http://127.0.0.1:47002/admin/users.json#',
        authUrl: 'http://127.0.0.1:47002/internal?q=',
        apiVersion: '1.0',
        tokenHeader: 'X-Incode-Hardware-Id',
      },
      vault: new MemoryVault(),
      fetch: async (input) => {
        seen.push(String(input));
        return Response.json({});
      },
      logger: createLogger({ sink: () => undefined }),
    });
    await expect(client.authorize()).rejects.toMatchObject({
      code: 'INVALID_ENVIRONMENT',
      issues: expect.arrayContaining([
        expect.objectContaining({ path: 'baseUrl' }),
        expect.objectContaining({ path: 'authUrl' }),
      ]),
    });
    await expect(client.call('listApiKeys', {})).rejects.toMatchObject({
      code: 'INVALID_ENVIRONMENT',
    });
    expect(seen).toEqual([]);
  });
});
