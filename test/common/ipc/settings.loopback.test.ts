import { describe, expect, it } from 'vitest';
import {
  isLoopbackHost,
  isLoopbackHostname,
  isPlainHttpToRemote,
  settings,
  teamKeyBytes,
} from '../../../common/ipc/settings';

describe('loopback is a parsed IP literal in 127.0.0.0/8, ::1, or exactly localhost', () => {
  it.each(['localhost', 'LOCALHOST', '127.0.0.1', '127.255.255.254', '127.1.2.3', '::1', '[::1]', '0:0:0:0:0:0:0:1'])(
    '%s is loopback',
    (host) => expect(isLoopbackHost(host)).toBe(true),
  );

  it.each([
    '127.attacker.example',
    '127.0.0.1.attacker.example',
    '127.0.0.1.nip.io',
    'localhost.attacker.example',
    'localhost.',
    '128.0.0.1',
    '127.0.0.256',
    '127.00.0.1',
    '0127.0.0.1',
    '::2',
    '::ffff:127.0.0.1',
    '10.0.0.1',
    '',
  ])('%s is not', (host) => expect(isLoopbackHost(host)).toBe(false));

  it('an address is judged by the hostname the URL parser gives, so every spelling of 127.0.0.1 is one', () => {
    for (const url of ['http://127.1/', 'http://0x7f.0.0.1/', 'http://2130706433/', 'http://[::1]:8080/'])
      expect(isLoopbackHostname(new URL(url).hostname)).toBe(true);
    expect(isPlainHttpToRemote('http://127.attacker.example/')).toBe(true);
    expect(isPlainHttpToRemote('http://127.0.0.1:9/')).toBe(false);
  });

  it('plain http to a name that starts with 127. is refused for an environment and for the team database', () => {
    const env = settings.updateEnvironment.input.safeParse({ id: 'custom', baseUrl: 'http://127.attacker.example' });
    expect(env.success).toBe(false);
    const team = settings.saveTeamDatabase.input.safeParse({
      config: { host: '127.attacker.example', port: 5432, database: 'd', user: 'u', tls: 'disable' },
    });
    expect(team.success).toBe(false);
    expect(team.error?.issues[0]?.path).toEqual(['config', 'tls']);
  });
});

describe('the team key is a generated 32-byte value', () => {
  it('takes base64 (as openssl rand -base64 32 prints it), base64url or hex of 32 random bytes', () => {
    expect(teamKeyBytes('k3JbY1cF0m5dQ9l2yT8xV7wZ4aR6sN0pE1hG3jU5iO8=')).toHaveLength(32);
    expect(teamKeyBytes('k3JbY1cF0m5dQ9l2yT8xV7wZ4aR6sN0pE1hG3jU5iO8')).toHaveLength(32);
    expect(teamKeyBytes('9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08')).toHaveLength(32);
  });

  it.each([
    ['a phrase of 32 characters', 'correct horse battery staple ok!'],
    ['a long word', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'],
    ['32 zero bytes', 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA='],
    ['16 bytes', 'k3JbY1cF0m5dQ9l2yT8xVw=='],
    ['a repeated pattern', '0102030401020304010203040102030401020304010203040102030401020304'],
  ])('refuses %s', (_what, key) => {
    expect(teamKeyBytes(key)).toBeUndefined();
  });
});

describe('api-version is validated as the wire accepts it (an RFC 9110 token)', () => {
  const parse = (apiVersion: string) => settings.updateEnvironment.input.safeParse({ id: 'custom', apiVersion });

  it.each(['1.0', ' 2.1 ', 'v1_beta-2', '2024-01-01'])('%s is accepted', (v) => {
    expect(parse(v).success).toBe(true);
  });

  it.each([
    ['1.0€', '"€" (U+20AC)'],
    ['1 0', 'U+0020'],
    ['1.0\u0000', 'U+0000'],
    ['1.0\r\nX-Evil: 1', 'U+000D'],
    ['1,0', '"," (U+002C)'],
    ['ñ', '"ñ" (U+00F1)'],
  ])('%j is refused, naming %s', (v, named) => {
    const result = parse(v);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toContain(`character ${named}`);
  });
});
