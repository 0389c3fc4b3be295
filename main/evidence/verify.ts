import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Bilingual } from '../../common/ipc/nom151';
import type { EvidenceCheck, EvidenceVerification, LaterChanges } from '../../common/ipc/evidence';
import type { Nom151Verification } from '../../common/ipc/nom151';
import { contractPaths, FORMAT, MANIFEST, MANIFEST_TOKEN, safe } from './file';
import { agreementChecks, readProvedEntry, type ProvedEntry } from './agree';
import { readZip, ZipError, type ReadPart } from './zip';

/**
 * The app's check of an evidence file: the steps of its VERIFY.txt, in the same order, on the same parts, with
 * Node's SHA-256 and the app's RFC 3161 verifier in place of sha256sum and OpenSSL; the tokens are checked against
 * the roots this environment trusts, not the ones the file carries. Says which part failed which step.
 */

export type StampCheck = (token: Uint8Array, data: Uint8Array) => Promise<Nom151Verification>;

const sha256Hex = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');
const text = (data: Uint8Array) => new TextDecoder().decode(data);

const words = {
  container: {
    en: 'The file is not an evidence file this app wrote, or it is damaged.',
    es: 'El archivo no es un expediente de evidencia de esta aplicación, o está dañado.',
  },
  damaged: {
    en: 'This part’s bytes do not match the checksum the archive states: it was edited inside the archive.',
    es: 'Los bytes de esta parte no coinciden con la suma que declara el archivo: se editó dentro del archivo.',
  },
  missingPart: (part: string): Bilingual => ({
    en: `The file has no ${part}.`,
    es: `El archivo no tiene ${part}.`,
  }),
  unreadablePart: (part: string): Bilingual => ({
    en: `${part} is not in the shape the app writes: it was edited, or made by something else.`,
    es: `${part} no tiene la forma que escribe la app: se editó, o lo hizo otra cosa.`,
  }),
  manifestToken: {
    en: 'The provider’s stamp does not match the manifest: the manifest was changed after the export, or the stamp is not the provider’s.',
    es: 'El sello del proveedor no coincide con el manifiesto: el manifiesto cambió después de la exportación, o el sello no es del proveedor.',
  },
  notOnTrail: {
    en: 'This checkpoint is not one of the trail this app is connected to: the file’s entries cannot be confirmed against this record (a file of another computer or team, or one made outside the app; a stamp proves when, not who).',
    es: 'Este punto de control no es de la bitácora a la que está conectada esta app: las entradas del archivo no se pueden confirmar contra este registro (un archivo de otra computadora o equipo, o uno hecho fuera de la app; un sello prueba cuándo, no quién).',
  },
  exportNotOnTrail: {
    en: 'The trail this app is connected to has no record of this export: the file is not one exported from this record (another computer or team, or made outside the app).',
    es: 'La bitácora a la que está conectada esta app no registra esta exportación: el archivo no se exportó de este registro (otra computadora o equipo, o se hizo fuera de la app).',
  },
  exporterDiffers: (by: string): Bilingual => ({
    en: `The file names another exporter than the trail, which recorded this export as ${by}’s: the file was changed after it was written.`,
    es: `El archivo nombra a otro exportador que la bitácora, que registró esta exportación como de ${by}: el archivo cambió después de escribirse.`,
  }),
  manifestNotRecorded: {
    en: 'The trail did not record this export’s manifest (a file of an earlier version, or an export that did not finish): its parts cannot be confirmed against this record.',
    es: 'La bitácora no registró el manifiesto de esta exportación (un archivo de una versión anterior, o una exportación que no terminó): sus partes no se pueden confirmar contra este registro.',
  },
  manifestDiffers: {
    en: 'The trail recorded another manifest for this export: the file was changed after it was written, and stamped again.',
    es: 'La bitácora registró otro manifiesto para esta exportación: el archivo cambió después de escribirse, y se selló de nuevo.',
  },
  trailDiffers: {
    en: 'This trail’s checkpoint of the same token lists other entries: the trail or the file was changed.',
    es: 'El punto de control de esta bitácora con el mismo sello lista otras entradas: se cambió la bitácora o el archivo.',
  },
  untrusted: {
    en: 'The stamp is intact but its provider root is not one this environment trusts.',
    es: 'El sello está íntegro, pero la raíz de su proveedor no es una que este ambiente confíe.',
  },
  altered: {
    en: 'This part is not the one the manifest lists: it was changed after the export.',
    es: 'Esta parte no es la que lista el manifiesto: cambió después de la exportación.',
  },
  missing: {
    en: 'The manifest lists this part, but the file does not have it.',
    es: 'El manifiesto lista esta parte, pero el archivo no la tiene.',
  },
  extra: {
    en: 'This part is not in the manifest: it was added after the export.',
    es: 'Esta parte no está en el manifiesto: se añadió después de la exportación.',
  },
  checkpointToken: {
    en: 'The checkpoint’s stamp does not match its statement: the list of hashes was changed, or the stamp is not the provider’s.',
    es: 'El sello del punto de control no coincide con su declaración: la lista de hashes cambió, o el sello no es del proveedor.',
  },
  inclusion: {
    en: 'This entry’s bytes do not hash to a line of the checkpoint’s statement: the entry is not the one the trail held.',
    es: 'El hash de los bytes de esta entrada no es una línea de la declaración del punto de control: la entrada no es la que tenía la bitácora.',
  },
  contractToken: {
    en: 'The NOM-151 evidence does not match this contract: the contract or its evidence was changed.',
    es: 'La constancia NOM-151 no coincide con este contrato: cambió el contrato o su constancia.',
  },
  tokenSignature: {
    en: 'As CMS signed data, this token is not signed by a time-stamping certificate under the root, or the time-stamp info it signs does not name this part’s SHA-256.',
    es: 'Como datos firmados CMS, este sello no lo firmó un certificado de sellado de tiempo bajo la raíz, o la información de sello que firma no nombra el SHA-256 de esta parte.',
  },
};

function stampOutcome(v: Nom151Verification): EvidenceCheck['outcome'] {
  if (v.valid) return 'ok';
  const sound = v.checks.imprint === 'passed' && v.checks.signature === 'passed';
  return sound && v.failures.every((f) => f.code === 'UNTRUSTED_CERTIFICATE') ? 'untrusted' : 'failed';
}

/** A token the verifier cannot even read (it throws on some damaged certificates) fails on the token's side. */
const unreadable = (): Nom151Verification =>
  ({
    valid: false,
    failures: [],
    checks: { imprint: 'not-run', signature: 'failed', chain: 'not-run', validity: 'not-run', usage: 'not-run' },
  }) as unknown as Nom151Verification;

/**
 * `export.json` as the verifier reads it, before anything it says is acted on: lists bounded and of the right kinds
 * (an object for its proofs, or null for its contracts, had thrown instead of naming the part).
 */
const LISTED_AT_MOST = 100_000;
const ExportInfoRead = z.looseObject({
  format: z.literal(FORMAT),
  version: z.number().int().optional(),
  interviewId: z.string().max(500),
  exportedAt: z.string().max(100),
  exportedBy: z.string().max(500),
  purpose: z.string().max(1000),
  unproved: z.array(z.looseObject({ seq: z.number().int().positive(), why: z.string().max(100) })).max(LISTED_AT_MOST),
  proofs: z
    .array(z.object({ seq: z.number().int().positive(), checkpoint: z.number().int().positive() }))
    .max(LISTED_AT_MOST),
  contracts: z.array(z.string().max(500)).max(LISTED_AT_MOST),
  exportEntry: z.number().int().positive().optional(),
  environment: z.looseObject({ id: z.string().max(200) }).optional(),
});
type ExportInfoRead = z.infer<typeof ExportInfoRead>;
/**
 * Whether a checkpoint of the file is this trail's: `same` (the trail's checkpoint of that number has the same token and
 * states the same entries), `differs` (same token, other entries), `absent` (not one of this trail's checkpoints).
 */
export type TrailCheck = (
  seq: number,
  statement: Uint8Array,
  token: Uint8Array,
) => Promise<'same' | 'differs' | 'absent'>;

/**
 * The export entry the file names, as the connected trail holds it: who made it (a team's login) and the manifest its
 * maker recorded right after writing the file. `undefined`: no export of this interview has that entry.
 */
export type ExportRecord = (
  interviewId: string,
  exportEntry: number,
) => Promise<{ by?: string; manifestSha256?: string } | undefined>;

/** What the connected trail holds for the interview after the file's export entry, in the file's environment. */
export type LaterOnTrail = (
  interviewId: string,
  afterSeq: number,
  environment: string | undefined,
) => Promise<LaterChanges | undefined>;

export async function verifyEvidenceFile(
  bytes: Uint8Array,
  check: StampCheck,
  trail?: { onTrail: TrailCheck; exportRecord: ExportRecord; later: LaterOnTrail },
): Promise<EvidenceVerification> {
  const stampCheck: StampCheck = (token, data) => check(token, data).catch(unreadable);
  const checks: EvidenceCheck[] = [];
  const result = (extra: Partial<EvidenceVerification>): EvidenceVerification => {
    const failedParts = [...new Set(checks.filter((c) => c.outcome !== 'ok').map((c) => c.part))];
    return {
      valid: checks.length > 0 && checks.every((c) => c.outcome === 'ok'),
      failedParts,
      checks,
      unproved: [],
      counts: { parts: 0, entries: 0, checkpoints: 0, contracts: 0 },
      ...extra,
    };
  };
  let parts: ReadPart[];
  try {
    parts = readZip(bytes);
  } catch (err) {
    const detail = err instanceof ZipError ? err.reason : { en: 'unreadable', es: 'ilegible' };
    checks.push({ step: 'container', part: '(file)', outcome: 'failed', message: words.container, detail });
    return result({});
  }
  const byPath = new Map(parts.map((p) => [p.path, p]));
  for (const p of parts)
    if (!p.crcOk) checks.push({ step: 'container', part: p.path, outcome: 'failed', message: words.damaged });
  const manifest = byPath.get(MANIFEST);
  const manifestToken = byPath.get(MANIFEST_TOKEN);
  const exportPart = byPath.get('export.json');
  let info: ExportInfoRead | undefined;
  try {
    const parsed = ExportInfoRead.safeParse(JSON.parse(text(exportPart?.data ?? new Uint8Array())));
    if (parsed.success) info = parsed.data;
  } catch {
    info = undefined;
  }
  if (!manifest || !manifestToken || !info) {
    const part = !manifest ? MANIFEST : !manifestToken ? MANIFEST_TOKEN : 'export.json';
    const message = part === 'export.json' && exportPart ? words.unreadablePart(part) : words.missingPart(part);
    checks.push({ step: 'container', part, outcome: 'failed', message });
    return result({});
  }

  // Each token is verified once; STEP 6 reads the same verdicts (OpenSSL's CMS verifier checks a subset of them).
  const signed: { token: string; data: string; verdict: Nom151Verification }[] = [];

  // STEP 1: the manifest as the provider stamped it at the export.
  const stamp = await stampCheck(manifestToken.data, manifest.data);
  signed.push({ token: MANIFEST_TOKEN, data: MANIFEST, verdict: stamp });
  const stepOne = stampOutcome(stamp);
  checks.push({
    step: 'manifestToken',
    part: stepOne === 'failed' && stamp.checks.imprint === 'failed' ? MANIFEST : MANIFEST_TOKEN,
    outcome: stepOne,
    ...(stepOne === 'failed'
      ? { message: words.manifestToken, ...(stamp.failure ? { detail: stamp.failure.message } : {}) }
      : {}),
    ...(stepOne === 'untrusted' ? { message: words.untrusted } : {}),
  });

  // STEP 2: every part as the manifest lists it, nothing missing, nothing added.
  const listed = new Map<string, string>();
  for (const line of text(manifest.data).split('\n')) {
    const m = /^([0-9a-f]{64}) {2}(.+)$/.exec(line);
    if (m) listed.set(m[2]!, m[1]!);
  }
  for (const [path, hash] of listed) {
    const part = byPath.get(path);
    if (!part) checks.push({ step: 'manifest', part: path, outcome: 'failed', message: words.missing });
    else if (sha256Hex(part.data) !== hash)
      checks.push({ step: 'manifest', part: path, outcome: 'failed', message: words.altered });
    else checks.push({ step: 'manifest', part: path, outcome: 'ok' });
  }
  for (const p of parts)
    if (!listed.has(p.path) && p.path !== MANIFEST && p.path !== MANIFEST_TOKEN)
      checks.push({ step: 'manifest', part: p.path, outcome: 'failed', message: words.extra });

  // STEP 3: each checkpoint statement as stamped when the checkpoint was taken.
  const checkpointSeqs = [...new Set(info.proofs.map((p) => p.checkpoint))];
  const statements = new Map<number, Set<string>>();
  for (const seq of checkpointSeqs) {
    const statementPath = `trail/checkpoints/${seq}.statement.txt`;
    const statement = byPath.get(statementPath);
    const token = byPath.get(`trail/checkpoints/${seq}.tst`);
    if (!statement || !token) {
      const part = !statement ? statementPath : `trail/checkpoints/${seq}.tst`;
      checks.push({ step: 'checkpointToken', part, outcome: 'failed', message: words.missingPart(part) });
      continue;
    }
    const v = await stampCheck(token.data, statement.data);
    signed.push({ token: `trail/checkpoints/${seq}.tst`, data: statementPath, verdict: v });
    const outcome = stampOutcome(v);
    checks.push({
      step: 'checkpointToken',
      part: outcome === 'failed' && v.checks.imprint === 'failed' ? statementPath : `trail/checkpoints/${seq}.tst`,
      outcome,
      ...(outcome === 'failed'
        ? { message: words.checkpointToken, ...(v.failure ? { detail: v.failure.message } : {}) }
        : {}),
      ...(outcome === 'untrusted' ? { message: words.untrusted } : {}),
    });
    statements.set(seq, new Set(text(statement.data).split('\n')));
  }

  // STEP 4: each entry's exact bytes hash to a `seq hash` line of its checkpoint's statement.
  const proved: ProvedEntry[] = [];
  for (const proof of info.proofs) {
    const path = `trail/entries/${proof.seq}.txt`;
    const entry = byPath.get(path);
    const lines = statements.get(proof.checkpoint);
    const ok = entry !== undefined && lines?.has(`${proof.seq} ${sha256Hex(entry.data)}`) === true;
    const read = ok ? readProvedEntry(proof.seq, text(entry.data)) : undefined;
    if (read) proved.push(read);
    checks.push({
      step: 'inclusion',
      part: path,
      outcome: ok ? 'ok' : 'failed',
      ...(ok ? {} : { message: entry ? words.inclusion : words.missingPart(path) }),
    });
  }

  checks.push(...agreementChecks(byPath.get('decisions.json')?.data, info, proved));

  // Beyond VERIFY.txt: anyone can have a statement of their own stamped (a stamp proves when, not who), so each
  // checkpoint must be one of the trail this app is connected to, stating the same entries.
  const onTrail = trail?.onTrail;
  if (onTrail)
    for (const seq of checkpointSeqs) {
      const statementPath = `trail/checkpoints/${seq}.statement.txt`;
      const statement = byPath.get(statementPath);
      const token = byPath.get(`trail/checkpoints/${seq}.tst`);
      if (!statement || !token) continue;
      const found = await onTrail(seq, statement.data, token.data);
      checks.push({
        step: 'trail',
        part: statementPath,
        outcome: found === 'same' ? 'ok' : found === 'differs' ? 'failed' : 'notOnTrail',
        ...(found === 'absent' ? { message: words.notOnTrail } : {}),
        ...(found === 'differs' ? { message: words.trailDiffers } : {}),
      });
    }

  // STEP 5: each contract is the document its NOM-151 evidence is over.
  // A file of version 1 named them by id alone (two ids that fold alike shared a name: such a file fails above).
  for (const [i, documentId] of info.contracts.entries()) {
    const { pdf: pdfPath, token: tokenPath } =
      (info.version ?? 1) >= 2
        ? contractPaths(i, info.contracts.length, documentId)
        : { pdf: `contracts/${safe(documentId)}.pdf`, token: `contracts/${safe(documentId)}.tst` };
    const pdf = byPath.get(pdfPath);
    const token = byPath.get(tokenPath);
    if (!pdf || !token) {
      const part = !pdf ? pdfPath : tokenPath;
      checks.push({ step: 'contractToken', part, outcome: 'failed', message: words.missingPart(part) });
      continue;
    }
    const v = await stampCheck(token.data, pdf.data);
    signed.push({ token: tokenPath, data: pdfPath, verdict: v });
    const outcome = stampOutcome(v);
    checks.push({
      step: 'contractToken',
      part: outcome === 'failed' && v.checks.imprint === 'failed' ? pdfPath : tokenPath,
      outcome,
      ...(outcome === 'failed'
        ? { message: words.contractToken, ...(v.failure ? { detail: v.failure.message } : {}) }
        : {}),
      ...(outcome === 'untrusted' ? { message: words.untrusted } : {}),
    });
  }

  // STEP 6: each token as CMS signed data: the provider's signature, its certificate up to the root, its time-stamping
  // purpose, and the signed imprint against the part beside it.
  for (const { token, data, verdict } of signed) {
    const outcome = stampOutcome(verdict);
    checks.push({
      step: 'tokenSignature',
      part: outcome === 'failed' && verdict.checks.imprint === 'failed' ? data : token,
      outcome,
      ...(outcome === 'failed'
        ? { message: words.tokenSignature, ...(verdict.failure ? { detail: verdict.failure.message } : {}) }
        : {}),
      ...(outcome === 'untrusted' ? { message: words.untrusted } : {}),
    });
  }

  // Beyond VERIFY.txt too: the file as its exporter wrote it. Its parts, stamped again after a rewrite, pass every
  // command; the manifest this trail recorded for the export does not match theirs.
  if (trail) {
    const record =
      info.exportEntry === undefined ? undefined : await trail.exportRecord(info.interviewId, info.exportEntry);
    const manifestHash = sha256Hex(manifest.data);
    if (!record)
      checks.push({ step: 'trail', part: 'export.json', outcome: 'notOnTrail', message: words.exportNotOnTrail });
    else {
      if (record.by !== undefined && record.by !== info.exportedBy)
        checks.push({
          step: 'trail',
          part: 'export.json',
          outcome: 'failed',
          message: words.exporterDiffers(record.by),
        });
      checks.push(
        record.manifestSha256 === undefined
          ? { step: 'trail', part: MANIFEST, outcome: 'notOnTrail', message: words.manifestNotRecorded }
          : record.manifestSha256 === manifestHash
            ? { step: 'trail', part: MANIFEST, outcome: 'ok' }
            : { step: 'trail', part: MANIFEST, outcome: 'failed', message: words.manifestDiffers },
      );
    }
  }

  // A genuine file of this trail may still be an old one: what changed for the interview since its export is said.
  const ours =
    trail !== undefined &&
    checkpointSeqs.length > 0 &&
    checks.every((c) => c.outcome === 'ok') &&
    checks.some((c) => c.step === 'trail');
  const exportEntry = info.exportEntry ?? Math.max(...info.proofs.map((p) => p.seq));
  const laterChanges = ours ? await trail.later(info.interviewId, exportEntry, info.environment?.id) : undefined;

  return result({
    interviewId: info.interviewId,
    exportedAt: info.exportedAt,
    exportedBy: info.exportedBy,
    purpose: info.purpose,
    ...(stamp.details?.genTime ? { stampedAt: stamp.details.genTime } : {}),
    unproved: info.unproved.map((u) => u.seq),
    counts: {
      parts: parts.length,
      entries: info.proofs.length + info.unproved.length,
      checkpoints: checkpointSeqs.length,
      contracts: info.contracts.length,
    },
    manifestToken: { valid: stamp.valid, ...(stamp.details ? { details: stamp.details } : {}) },
    ...(laterChanges ? { laterChanges } : {}),
  });
}
