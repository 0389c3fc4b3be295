import { describe, expect, it } from 'vitest';
import { settings } from '../../../common/ipc/settings';

// Red team 7, finding 4: a base or authorization URL with a query or a fragment cut the service's paths off.
describe('environment addresses take no query, fragment or user name', () => {
  const parse = (field: 'baseUrl' | 'authUrl', url: string) =>
    settings.updateEnvironment.input.safeParse({ id: 'custom', [field]: url });

  it.each([
    'http://127.0.0.1:47002/admin/users.json#',
    'http://127.0.0.1:47002/admin/users.json?',
    'https://omni.example/api?x=1',
    'https://omni.example/#/x',
  ])('refuses %s with a message naming the query and the fragment', (url) => {
    for (const field of ['baseUrl', 'authUrl'] as const) {
      const result = parse(field, url);
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toContainEqual([
        field,
        'Must not contain a query (?) or a fragment (#)',
      ]);
    }
  });

  it('still refuses a user name or password', () => {
    expect(parse('baseUrl', 'https://user:pw@omni.example/').success).toBe(false);
  });

  it.each(['https://omni.example', 'https://omni.example/api/', 'http://127.0.0.1:4000/prefix'])('accepts %s', (url) =>
    expect(parse('baseUrl', url).success).toBe(true),
  );
});
