import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoTsa } from '../../../main/nom151/tsa';
import { verifyEvidence } from '../../../main/nom151/verify';

/**
 * Evidence someone else produced: an RSA time-stamping authority run by OpenSSL (`openssl ts -reply`), with its own
 * root. Our verifier must accept what a standard TSA issues, not only what our demo provider issues.
 */

const CONFIG = `
[ req ]
distinguished_name = dn
prompt = no
[ dn ]
CN = Third Party NOM-151 Root
[ v3_ca ]
basicConstraints = critical, CA:true
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[ v3_tsa ]
basicConstraints = critical, CA:false
keyUsage = critical, digitalSignature, nonRepudiation
extendedKeyUsage = critical, timeStamping
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
[ tsa_config ]
serial = ./serial
crypto_device = builtin
signer_digest = sha256
default_policy = 1.2.3.4.1
other_policies = 1.2.3.4.2
digests = sha256
accuracy = secs:1
ordering = no
tsa_name = yes
ess_cert_id_chain = no
ess_cert_id_alg = sha256
certs = ./tsa.pem
`;

let dir: string;
let rootPem: string;
let reply: Uint8Array;
const data = new TextEncoder().encode('Contrato firmado por un tercero\n');

function openssl(args: string[]) {
  execFileSync('/usr/bin/openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'nom151-openssl-'));
  writeFileSync(join(dir, 'ca.cnf'), CONFIG);
  writeFileSync(join(dir, 'serial'), '01\n');
  writeFileSync(join(dir, 'data.bin'), data);
  openssl([
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'root.key',
    '-out',
    'root.pem',
    '-days',
    '30',
    '-config',
    'ca.cnf',
    '-extensions',
    'v3_ca',
  ]);
  openssl([
    'req',
    '-new',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'tsa.key',
    '-out',
    'tsa.csr',
    '-subj',
    '/CN=Third Party TSA',
  ]);
  openssl([
    'x509',
    '-req',
    '-in',
    'tsa.csr',
    '-CA',
    'root.pem',
    '-CAkey',
    'root.key',
    '-CAcreateserial',
    '-out',
    'tsa.pem',
    '-days',
    '20',
    '-extfile',
    'ca.cnf',
    '-extensions',
    'v3_tsa',
  ]);
  openssl(['ts', '-query', '-data', 'data.bin', '-sha256', '-cert', '-out', 'req.tsq']);
  openssl([
    'ts',
    '-reply',
    '-queryfile',
    'req.tsq',
    '-inkey',
    'tsa.key',
    '-signer',
    'tsa.pem',
    '-config',
    'ca.cnf',
    '-section',
    'tsa_config',
    '-out',
    'resp.tsr',
  ]);
  rootPem = readFileSync(join(dir, 'root.pem'), 'utf8');
  reply = new Uint8Array(readFileSync(join(dir, 'resp.tsr')));
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('evidence from an OpenSSL time-stamping authority (RSA)', () => {
  it('verifies against its root', async () => {
    const result = await verifyEvidence({ evidence: reply, document: data, trustedRootsPem: [rootPem] });
    expect(result.failures).toEqual([]);
    expect(result.valid).toBe(true);
    expect(result.source.evidence).toBe('timestamp-response');
    expect(result.details?.provider).toBe('CN=Third Party TSA');
    expect(result.details?.policy).toBe('1.2.3.4.1');
    expect(result.details?.chain).toEqual(['CN=Third Party TSA', 'CN=Third Party NOM-151 Root']);
  });

  it('fails with "hash mismatch" for another document and "untrusted" without its root', async () => {
    const other = data.slice();
    other[0] = other[0]! ^ 0x20;
    expect((await verifyEvidence({ evidence: reply, document: other, trustedRootsPem: [rootPem] })).failure?.code).toBe(
      'HASH_MISMATCH',
    );
    const demo = await createDemoTsa();
    expect(
      (await verifyEvidence({ evidence: reply, document: data, trustedRootsPem: [demo.rootPem] })).failure?.code,
    ).toBe('UNTRUSTED_CERTIFICATE');
  });
});
