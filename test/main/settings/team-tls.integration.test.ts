import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TeamDatabaseInput } from '../../../common/ipc/settings';
import { MemoryVault } from '../../../main/auth/memory-vault';
import { openRecord } from '../../../main/record/open';
import { teamDatabaseSettings } from '../../../main/settings/team-database';
import { MemoryJsonStore } from '../../helpers/fake-safe-storage';
import { fakePostgres, type FakeServer } from '../../helpers/fake-postgres';

/**
 * README: "A server on another machine needs TLS with its certificate verified (verify-full)". A fake PostgreSQL
 * server answers the SSLRequest, then asks for the password in clear text and keeps what it is sent (decrypted, when
 * the handshake went through). Settings > Test and a start (the app's own connection settings, teamConnection) reach
 * it with verify-full: a certificate no pasted CA signed, one for another name, or a server that says it has no TLS
 * (a downgrade) is refused before the password is sent. The control, a certificate for this address under the
 * pasted CA, does get it: the fake would have seen it.
 */

const PASSWORD = 'team-tls-password-7731';
let dir: string;
const pem = (name: string) => readFileSync(join(dir, name), 'utf8');

function openssl(args: string[]): void {
  execFileSync('/usr/bin/openssl', args, { cwd: dir, stdio: 'pipe' });
}

/** A CA, a certificate for 127.0.0.1 and one for another host under it, and a self-signed one for 127.0.0.1. */
function makeCertificates(): void {
  const key = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  openssl(['req', '-x509', ...key, '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '2', '-subj', '/CN=Team test CA']);
  for (const [name, san] of [
    ['good', 'IP:127.0.0.1'],
    ['other', 'DNS:db.other.example'],
  ] as const) {
    writeFileSync(join(dir, `${name}.ext`), `subjectAltName=${san}\nbasicConstraints=CA:FALSE\n`);
    openssl(['req', '-new', ...key, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}`]);
    openssl([
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-set_serial',
      name === 'good' ? '2' : '3',
      '-days',
      '2',
      '-extfile',
      `${name}.ext`,
      '-out',
      `${name}.crt`,
    ]);
  }
  openssl([
    'req',
    '-x509',
    ...key,
    '-keyout',
    'self.key',
    '-out',
    'self.crt',
    '-days',
    '2',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
  ]);
}

/** How the fake server answers an SSLRequest: with TLS and the certificate and key of these files (`dir`), or 'N'. */
type Mode = { ssl: 'S'; cert: string; key: string } | { ssl: 'N' };
const serving = (mode: Mode) =>
  fakePostgres(mode.ssl === 'N' ? mode : { ssl: 'S', cert: pem(mode.cert), key: pem(mode.key) });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'omni-team-tls-'));
  makeCertificates();
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The address as Settings saves it (the form's own rules), verify-full, the CA pasted when given. */
const address = (port: number, ca?: string) =>
  TeamDatabaseInput.parse({
    host: '127.0.0.1',
    port,
    database: 'team',
    user: 'ana',
    tls: 'verify-full',
    ...(ca ? { ca: pem(ca) } : {}),
  });

const sent = (fake: FakeServer) => Buffer.concat(fake.afterStartup);

const refused: [string, Mode, string | undefined, RegExp][] = [
  [
    'a self-signed certificate, no CA pasted',
    { ssl: 'S', cert: 'self.crt', key: 'self.key' },
    undefined,
    /self-signed certificate/,
  ],
  [
    'a self-signed certificate, another CA pasted',
    { ssl: 'S', cert: 'self.crt', key: 'self.key' },
    'ca.crt',
    /self-signed certificate/,
  ],
  [
    'a certificate for another host name under the pasted CA',
    { ssl: 'S', cert: 'other.crt', key: 'other.key' },
    'ca.crt',
    /Hostname\/IP does not match certificate's altnames/,
  ],
  ['a server that says it has no TLS (a downgrade)', { ssl: 'N' }, 'ca.crt', /does not support SSL connections/],
];

describe('a team database reached with verify-full', () => {
  it('control: a certificate for this address under the pasted CA gets the password (the fake would see it)', async () => {
    const fake = await serving({ ssl: 'S', cert: 'good.crt', key: 'good.key' });
    try {
      const team = teamDatabaseSettings({ store: new MemoryJsonStore(), vault: new MemoryVault() });
      await team.save(address(fake.port, 'ca.crt'), PASSWORD);
      // The fake hangs up after the password: the test fails, but only after sending it.
      await expect(team.test()).rejects.toMatchObject({ data: { code: 'TEAM_DATABASE_UNREACHABLE' } });
      expect(fake).toMatchObject({ sslRequests: 1, handshakes: 1 });
      expect(sent(fake)[0]).toBe(0x70); // PasswordMessage
      expect(sent(fake).includes(PASSWORD)).toBe(true);
    } finally {
      await fake.close();
    }
  });

  it.each(refused)('%s: refused by Settings > Test and at start, the password never sent', async (_, mode, ca, why) => {
    const fake = await serving(mode);
    const outcome = (attempt: Promise<unknown>) =>
      attempt.then(
        () => 'connected',
        (error: unknown) => error,
      );
    try {
      const team = teamDatabaseSettings({ store: new MemoryJsonStore(), vault: new MemoryVault() });
      await team.save(address(fake.port, ca), PASSWORD);
      const tested = await outcome(team.test());
      // A start with the same settings (what Settings saved, password and all), the team database chosen.
      team.choose('team');
      const engine = await team.engineToOpen(join(dir, 'unused'));
      expect(engine).toMatchObject({ kind: 'team', tls: 'verify-full', password: PASSWORD });
      const started = await outcome(openRecord(engine));

      // The password was never sent, in clear or through TLS: the server read nothing after a startup message.
      expect(sent(fake).includes(PASSWORD)).toBe(false);
      expect(fake.afterStartup).toEqual([]);
      // Both asked for TLS first, and no handshake went through.
      expect(fake).toMatchObject({ sslRequests: 2, handshakes: 0 });
      // Settings says why, in the analyst's words and the driver's; the start fails with the driver's.
      expect(tested).toMatchObject({
        data: {
          code: 'TEAM_DATABASE_UNREACHABLE',
          message: { en: 'The team database’s certificate could not be verified, so nothing was sent.' },
          details: { serviceMessage: expect.stringMatching(why) },
        },
      });
      expect(started).toMatchObject({ message: expect.stringMatching(why) });
    } finally {
      await fake.close();
    }
  });
});
