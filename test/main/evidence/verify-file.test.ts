import { createHash } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import type { Nom151Verification } from '../../../common/ipc/nom151';
import { verifyEvidenceFile, type ExportRecord, type StampCheck } from '../../../main/evidence/verify';
import { readZip, writeZip, type ZipPart } from '../../../main/evidence/zip';

/**
 * The app's verifier on files made here, with a stand-in for the RFC 3161 verifier (it takes any form of token, as the
 * app's does): what export.json may list, what a token part must be, and which part a mismatched stamp names. The
 * whole flow against the demo service is evidence-file.integration.test.ts.
 */

const hashed = vi.hoisted(() => ({ count: 0 }));
vi.mock('node:crypto', async (importOriginal) => {
  const crypto = await importOriginal<typeof import('node:crypto')>();
  const createHash = ((...args: Parameters<typeof crypto.createHash>) => {
    hashed.count++;
    return crypto.createHash(...args);
  }) as typeof crypto.createHash;
  return { ...crypto, createHash, default: { ...crypto, createHash } };
});

const utf8 = (s: string) => new TextEncoder().encode(s);
const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');
/** A token's first bytes as the app writes it: a SEQUENCE opening with its content type (an OID). */
const token = (n: number) => new Uint8Array([0x30, 0x06, 0x06, 0x01, 0x00, 0x04, 0x01, n]);

const verdict = (imprint: 'passed' | 'failed'): Nom151Verification =>
  ({
    valid: imprint === 'passed',
    failures: [],
    checks: { imprint, signature: 'passed', chain: 'passed', validity: 'passed', usage: 'passed' },
    source: { evidence: 'token', document: 'given' },
  }) as unknown as Nom151Verification;

/** Every token verifies over its own data (the pair was written together), or over none when `mismatched`. */
const stampCheck =
  (mismatched: Uint8Array[] = []): StampCheck =>
  async (t) =>
    verdict(mismatched.some((m) => Buffer.compare(m, t) === 0) ? 'failed' : 'passed');

interface Made {
  parts: ZipPart[];
  info: Record<string, unknown>;
}

/** A file of `entries` proved entries under checkpoint 100 and `contracts` contracts, its manifest over all of it. */
function made(entries = 2, contracts = 1, change: (m: Made) => void = () => {}): Made {
  const parts: ZipPart[] = [];
  const lines: string[] = [];
  for (let seq = 1; seq <= entries; seq++) {
    const data = utf8(JSON.stringify({ at: 'x', environment: 'production', action: 'noted', detail: { seq } }));
    parts.push({ path: `trail/entries/${seq}.txt`, data });
    lines.push(`${seq} ${sha256(data)}`);
  }
  parts.push(
    { path: 'trail/checkpoints/100.statement.txt', data: utf8(lines.join('\n')) },
    { path: 'trail/checkpoints/100.tst', data: token(1) },
  );
  const ids = Array.from({ length: contracts }, (_, i) => `c${i}`);
  ids.forEach((id, i) =>
    parts.push(
      { path: `contracts/${String(i + 1).padStart(2, '0')}-${id}.pdf`, data: utf8(`%PDF-1.7 ${id}`) },
      { path: `contracts/${String(i + 1).padStart(2, '0')}-${id}.tst`, data: token(10 + i) },
    ),
  );
  const info: Record<string, unknown> = {
    format: 'omni-reviewer.evidence',
    version: 2,
    interviewId: 'i',
    exportedAt: '2026-11-27T10:00:00.000Z',
    exportedBy: 'ana',
    purpose: 'CNBV',
    environment: { id: 'production' },
    unproved: [],
    proofs: Array.from({ length: entries }, (_, i) => ({ seq: i + 1, checkpoint: 100 })),
    contracts: ids,
  };
  const m = { parts, info };
  change(m);
  return m;
}

/** The archive of a made file: export.json, then the manifest over every part, then its token. */
function zipOf({ parts, info }: Made, manifestToken = token(0)): Uint8Array {
  const all = [...parts, { path: 'export.json', data: utf8(JSON.stringify(info)) }];
  const manifest = utf8(all.map((p) => `${sha256(p.data)}  ${p.path}\n`).join(''));
  return writeZip([...all, { path: 'MANIFEST.sha256', data: manifest }, { path: 'MANIFEST.tst', data: manifestToken }]);
}

const manifestOf = (zip: Uint8Array) => readZip(zip).find((p) => p.path === 'MANIFEST.sha256')!.data;

describe('the app’s check of an evidence file', () => {
  it('verifies a file whose every pair holds, hashing each part once', async () => {
    const zip = zipOf(made(50, 2));
    hashed.count = 0;
    const result = await verifyEvidenceFile(zip, stampCheck());
    expect(result).toMatchObject({ valid: true, failedParts: [] });
    // 50 entries, a statement, its token, two contracts of two parts, export.json, the manifest (its token is not).
    expect(hashed.count).toBeLessThanOrEqual(50 + 2 + 4 + 2);
  });

  it('refuses export.json listing what no genuine file lists, before verifying or hashing anything it names', async () => {
    const repeated = made(1, 0, (m) => {
      m.info.proofs = Array.from({ length: 1000 }, () => ({ seq: 1, checkpoint: 100 }));
    });
    const oneIdTwice = made(0, 1, (m) => {
      m.info.contracts = ['c0', 'c0'];
    });
    // Version 1 named a contract's parts by its id alone: two ids folded alike name the same two parts.
    const foldedAlike = made(0, 0, (m) => {
      m.info.version = 1;
      m.info.contracts = ['c:1', 'c_1'];
      m.parts.push(
        { path: 'contracts/c_1.pdf', data: utf8('%PDF-1.7') },
        { path: 'contracts/c_1.tst', data: token(3) },
        { path: 'contracts/other.pdf', data: utf8('%PDF-1.7') },
      );
    });
    const moreProofs = made(2, 0, (m) => {
      m.info.proofs = [1, 2, 3].map((seq) => ({ seq, checkpoint: 100 }));
    });
    const moreContracts = made(0, 1, (m) => {
      m.info.contracts = ['c0', 'c1'];
    });
    for (const [file, why] of [
      [repeated, 'an entry proved twice'],
      [oneIdTwice, 'a contract named twice'],
      [foldedAlike, 'a contract named twice'],
      [moreProofs, '3 proofs, and 2 entries'],
      [moreContracts, '2 contracts, and 1 contract documents'],
    ] as const) {
      const check = vi.fn(stampCheck());
      const result = await verifyEvidenceFile(zipOf(file), check);
      expect(result.failedParts, why).toEqual(['export.json']);
      expect(result.checks, why).toEqual([
        expect.objectContaining({
          step: 'container',
          outcome: 'failed',
          message: {
            en: expect.stringContaining(why),
            es: expect.stringContaining('export.json lista lo que ningún archivo de la app lista'),
          },
        }),
      ]);
      expect(check, why).not.toHaveBeenCalled();
    }
  });

  it('fails a token part that is not the bare DER token OpenSSL reads, and names it', async () => {
    const der = token(0);
    const base64 = utf8(Buffer.from(der).toString('base64'));
    const pem = utf8(`-----BEGIN PKCS7-----\n${Buffer.from(der).toString('base64')}\n-----END PKCS7-----\n`);
    // A TimeStampResp: its status (a SEQUENCE) first, then the token.
    const reply = new Uint8Array([0x30, 0x0d, 0x30, 0x03, 0x02, 0x01, 0x00, ...der]);
    const pdf = utf8('%PDF-1.7\n0 a sealed PDF carrying the token\n%%EOF');
    const sealed = new Uint8Array([0x30, ...pdf]);
    for (const [form, bytes] of Object.entries({ base64, pem, reply, pdf, sealed })) {
      const result = await verifyEvidenceFile(zipOf(made(), bytes), stampCheck());
      expect(result.valid, form).toBe(false);
      expect(result.failedParts, form).toEqual(['MANIFEST.tst']);
      expect(result.checks.filter((c) => c.outcome !== 'ok').map((c) => c.step)).toEqual([
        'manifestToken',
        'tokenSignature',
      ]);
      expect(result.checks.find((c) => c.step === 'manifestToken')?.detail?.es, form).toContain('sin envoltura');
    }
    // A checkpoint's and a contract's token too.
    const recoded = made(2, 1, (m) => {
      for (const p of m.parts) if (p.path.endsWith('.tst')) p.data = utf8(Buffer.from(p.data).toString('base64'));
    });
    expect((await verifyEvidenceFile(zipOf(recoded), stampCheck())).failedParts.sort()).toEqual([
      'contracts/01-c0.tst',
      'trail/checkpoints/100.tst',
    ]);
  });

  it('names the token a mismatched stamp is in when its data is known good, both when nothing says which', async () => {
    const other = token(99);
    const trail = (recorded: string | undefined) => ({
      onTrail: async () => 'same' as const,
      exportRecord: (async () => ({ by: 'ana', manifestSha256: recorded })) as ExportRecord,
      later: async () => undefined,
    });
    // The manifest is the one the trail recorded for the export: the token was replaced.
    const file = made(2, 1, (m) => {
      m.info.exportEntry = 2;
    });
    const recordedZip = zipOf(file, other);
    const recorded = await verifyEvidenceFile(recordedZip, stampCheck([other]), trail(sha256(manifestOf(recordedZip))));
    expect(recorded.failedParts).toContain('MANIFEST.tst');
    expect(recorded.failedParts).not.toContain('MANIFEST.sha256');
    const stepOne = recorded.checks.find((c) => c.step === 'manifestToken')!;
    expect(stepOne.message?.en).toContain('MANIFEST.tst was replaced');
    expect(stepOne.message?.es).toContain('se reemplazó MANIFEST.tst');
    // Another manifest on the trail, or no trail: both.
    for (const verdictOf of [
      await verifyEvidenceFile(recordedZip, stampCheck([other]), trail('0'.repeat(64))),
      await verifyEvidenceFile(recordedZip, stampCheck([other])),
    ])
      expect(verdictOf.failedParts).toEqual(expect.arrayContaining(['MANIFEST.sha256', 'MANIFEST.tst']));

    // A checkpoint's token swapped for another under a manifest that holds: STEP 2 names the token, not the statement.
    const swapped = made(2, 1);
    const original = zipOf(swapped);
    const tokenPart = swapped.parts.find((p) => p.path === 'trail/checkpoints/100.tst')!;
    const listed = Buffer.from(manifestOf(original));
    const checkpointSwapped = writeZip(
      [
        ...swapped.parts.map((p) => (p === tokenPart ? { ...p, data: other } : p)),
        { path: 'export.json', data: utf8(JSON.stringify(swapped.info)) },
      ].concat([
        { path: 'MANIFEST.sha256', data: listed },
        { path: 'MANIFEST.tst', data: token(0) },
      ]),
    );
    const checkpoint = await verifyEvidenceFile(checkpointSwapped, stampCheck([other]));
    expect(checkpoint.failedParts).toEqual(['trail/checkpoints/100.tst']);
  });
});
