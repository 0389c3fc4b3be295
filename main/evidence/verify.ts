import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Bilingual } from '../../common/ipc/nom151';
import type { EvidenceCheck, EvidenceVerification, LaterChanges } from '../../common/ipc/evidence';
import type { Nom151Verification } from '../../common/ipc/nom151';
import { contractPaths, FORMAT, MANIFEST, MANIFEST_TOKEN, safe } from './file';
import { agreementChecks, readProvedEntry, type ProvedEntry } from './agree';
import { readZip, ZipError, type ReadPart } from './zip';
import { isPdf } from '../nom151/verify';

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
  manifestTokenReplaced: {
    en: 'The provider’s stamp is of another document: the manifest is the one the trail recorded for this export, so MANIFEST.tst was replaced.',
    es: 'El sello del proveedor es de otro documento: el manifiesto es el que la bitácora registró para esta exportación, así que se reemplazó MANIFEST.tst.',
  },
  notBareToken: {
    en: 'This token is not in the form the app writes and OpenSSL reads (`-token_in`, `-inform DER`): a bare DER time-stamp token. It was re-encoded (base64, PEM, a time-stamp reply, a PDF) after the export.',
    es: 'Este sello no está en la forma que escribe la app y que lee OpenSSL (`-token_in`, `-inform DER`): un sello de tiempo DER sin envoltura. Se recodificó (base64, PEM, una respuesta de sellado, un PDF) después de la exportación.',
  },
  listsBeyondFile: (why: Bilingual): Bilingual => ({
    en: `export.json lists what no file of the app lists: ${why.en}. It was edited, or made by something else.`,
    es: `export.json lista lo que ningún archivo de la app lista: ${why.es}. Se editó, o lo hizo otra cosa.`,
  }),
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

/**
 * A token part as the app writes it and OpenSSL's `-token_in` and `-inform DER` read it: the bare DER token (a
 * SEQUENCE, not a TimeStampResp around one, not base64 or PEM text, not a sealed PDF). The app's RFC 3161 verifier
 * takes every form, so a re-encoded token passed here while STEP 1 and STEP 6 failed offline.
 */
const isBareToken = (token: Uint8Array) => token[0] === 0x30 && firstInnerTag(token) === OID_TAG && !isPdf(token);

/** A token (ContentInfo) opens with its content type, an OID; a TimeStampResp with its status, a SEQUENCE. */
const OID_TAG = 0x06;
function firstInnerTag(der: Uint8Array): number | undefined {
  if (der.length < 2) return undefined;
  const length = der[1]!;
  // Short form (and BER's indefinite 0x80): one length byte; long form: 0x8N and N bytes of length.
  return der[length <= 0x80 ? 2 : 2 + (length & 0x7f)];
}

const notBareToken = (): Nom151Verification =>
  ({
    valid: false,
    failure: { code: 'MALFORMED_EVIDENCE', message: words.notBareToken, advice: words.notBareToken },
    failures: [],
    checks: { imprint: 'not-run', signature: 'failed', chain: 'not-run', validity: 'not-run', usage: 'not-run' },
  }) as unknown as Nom151Verification;

/**
 * What export.json lists beyond what the file can hold, if anything. A genuine file proves each entry once, names each
 * contract's parts once, and holds the parts it lists: a crafted one repeating a proof or a contract had the verifier
 * hash and verify the same part once per repeat (a 7 MB file held the app's main process for two minutes).
 */
function listedBeyondFile(info: ExportInfoRead, parts: ReadPart[]): Bilingual | undefined {
  const seqs = new Set(info.proofs.map((p) => p.seq));
  if (seqs.size !== info.proofs.length) return { en: 'an entry proved twice', es: 'una entrada demostrada dos veces' };
  // The ids are the keys of the service's list (no two alike); version 1 also folded two ids to one pair of parts.
  const pdfs = new Set(info.contracts.map((id, i) => contractPartsOf(info, i, id).pdf));
  if (new Set(info.contracts).size !== info.contracts.length || pdfs.size !== info.contracts.length)
    return { en: 'a contract named twice', es: 'un contrato nombrado dos veces' };
  const entryParts = parts.filter((p) => /^trail\/entries\/[^/]+\.txt$/.test(p.path)).length;
  if (info.proofs.length > entryParts)
    return {
      en: `${info.proofs.length} proofs, and ${entryParts} entries`,
      es: `${info.proofs.length} pruebas, y ${entryParts} entradas`,
    };
  const contractParts = parts.filter((p) => /^contracts\/[^/]+\.pdf$/.test(p.path)).length;
  if (info.contracts.length > contractParts)
    return {
      en: `${info.contracts.length} contracts, and ${contractParts} contract documents`,
      es: `${info.contracts.length} contratos, y ${contractParts} documentos de contrato`,
    };
  return undefined;
}

/** A contract's parts as the file's version names them (version 1 by id alone: two ids that fold alike shared them). */
const contractPartsOf = (info: ExportInfoRead, index: number, documentId: string) =>
  (info.version ?? 1) >= 2
    ? contractPaths(index, info.contracts.length, documentId)
    : { pdf: `contracts/${safe(documentId)}.pdf`, token: `contracts/${safe(documentId)}.tst` };

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
  const stampCheck: StampCheck = (token, data) =>
    isBareToken(token) ? check(token, data).catch(unreadable) : Promise.resolve(notBareToken());
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
  // Each part is hashed once, whichever steps read its hash.
  const hashes = new Map<string, string>();
  const hashOf = (part: ReadPart) => {
    let hash = hashes.get(part.path);
    if (hash === undefined) hashes.set(part.path, (hash = sha256Hex(part.data)));
    return hash;
  };
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
  const beyond = listedBeyondFile(info, parts);
  if (beyond) {
    checks.push({ step: 'container', part: 'export.json', outcome: 'failed', message: words.listsBeyondFile(beyond) });
    return result({});
  }

  // The export as the trail recorded it, read first: it says whether the manifest is the exporter's (STEP 1 below).
  const record =
    trail && info.exportEntry !== undefined ? await trail.exportRecord(info.interviewId, info.exportEntry) : undefined;
  const manifestHash = hashOf(manifest);
  const manifestRecorded = record?.manifestSha256 === manifestHash;

  /**
   * A stamp's checks, one a part to blame. A stamp whose imprint does not match names the part found changed: the
   * token when its data is known good, the data when its token is, both when nothing says which.
   */
  const stampChecks = (
    step: EvidenceCheck['step'],
    verdict: Nom151Verification,
    pair: { token: string; data: string; blame: string[] },
    message: Bilingual,
  ): EvidenceCheck[] => {
    const outcome = stampOutcome(verdict);
    const blamed = outcome === 'failed' && verdict.checks.imprint === 'failed' ? pair.blame : [pair.token];
    return blamed.map((part) => ({
      step,
      part,
      outcome,
      ...(outcome === 'failed' ? { message, ...(verdict.failure ? { detail: verdict.failure.message } : {}) } : {}),
      ...(outcome === 'untrusted' ? { message: words.untrusted } : {}),
    }));
  };

  // Each token is verified once; STEP 6 reads the same verdicts (OpenSSL's CMS verifier checks a subset of them).
  const signed: { token: string; data: string; blame: string[]; verdict: Nom151Verification }[] = [];

  // STEP 1: the manifest as the provider stamped it at the export. The manifest the trail recorded is the exporter's:
  // a stamp of another document then is a replaced token, not a changed manifest.
  const stamp = await stampCheck(manifestToken.data, manifest.data);
  const manifestPair = {
    token: MANIFEST_TOKEN,
    data: MANIFEST,
    blame: manifestRecorded ? [MANIFEST_TOKEN] : [MANIFEST, MANIFEST_TOKEN],
  };
  signed.push({ ...manifestPair, verdict: stamp });
  checks.push(
    ...stampChecks(
      'manifestToken',
      stamp,
      manifestPair,
      manifestRecorded ? words.manifestTokenReplaced : words.manifestToken,
    ),
  );

  // STEP 2: every part as the manifest lists it, nothing missing, nothing added.
  const listed = new Map<string, string>();
  for (const line of text(manifest.data).split('\n')) {
    const m = /^([0-9a-f]{64}) {2}(.+)$/.exec(line);
    if (m) listed.set(m[2]!, m[1]!);
  }
  for (const [path, hash] of listed) {
    const part = byPath.get(path);
    if (!part) checks.push({ step: 'manifest', part: path, outcome: 'failed', message: words.missing });
    else if (hashOf(part) !== hash)
      checks.push({ step: 'manifest', part: path, outcome: 'failed', message: words.altered });
    else checks.push({ step: 'manifest', part: path, outcome: 'ok' });
  }
  for (const p of parts)
    if (!listed.has(p.path) && p.path !== MANIFEST && p.path !== MANIFEST_TOKEN)
      checks.push({ step: 'manifest', part: p.path, outcome: 'failed', message: words.extra });
  // Which of a stamp and its data STEP 2 found changed (under a manifest STEP 1 may not hold: then both are named).
  const changed = new Set(checks.filter((c) => c.step === 'manifest' && c.outcome !== 'ok').map((c) => c.part));
  const blameOf = (token: string, data: string) => {
    const found = [data, token].filter((part) => changed.has(part));
    return stampOutcome(stamp) !== 'failed' && found.length > 0 ? found : [data, token];
  };

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
    const tokenPath = `trail/checkpoints/${seq}.tst`;
    const pair = { token: tokenPath, data: statementPath, blame: blameOf(tokenPath, statementPath) };
    signed.push({ ...pair, verdict: v });
    checks.push(...stampChecks('checkpointToken', v, pair, words.checkpointToken));
    statements.set(seq, new Set(text(statement.data).split('\n')));
  }

  // STEP 4: each entry's exact bytes hash to a `seq hash` line of its checkpoint's statement.
  const proved: ProvedEntry[] = [];
  for (const proof of info.proofs) {
    const path = `trail/entries/${proof.seq}.txt`;
    const entry = byPath.get(path);
    const lines = statements.get(proof.checkpoint);
    const ok = entry !== undefined && lines?.has(`${proof.seq} ${hashOf(entry)}`) === true;
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
  // A file of version 1 named them by id alone (two ids that fold alike shared a name: such a file is refused above).
  for (const [i, documentId] of info.contracts.entries()) {
    const { pdf: pdfPath, token: tokenPath } = contractPartsOf(info, i, documentId);
    const pdf = byPath.get(pdfPath);
    const token = byPath.get(tokenPath);
    if (!pdf || !token) {
      const part = !pdf ? pdfPath : tokenPath;
      checks.push({ step: 'contractToken', part, outcome: 'failed', message: words.missingPart(part) });
      continue;
    }
    const v = await stampCheck(token.data, pdf.data);
    const pair = { token: tokenPath, data: pdfPath, blame: blameOf(tokenPath, pdfPath) };
    signed.push({ ...pair, verdict: v });
    checks.push(...stampChecks('contractToken', v, pair, words.contractToken));
  }

  // STEP 6: each token as CMS signed data: the provider's signature, its certificate up to the root, its time-stamping
  // purpose, and the signed imprint against the part beside it.
  for (const { verdict, ...pair } of signed)
    checks.push(...stampChecks('tokenSignature', verdict, pair, words.tokenSignature));

  // Beyond VERIFY.txt too: the file as its exporter wrote it. Its parts, stamped again after a rewrite, pass every
  // command; the manifest this trail recorded for the export does not match theirs.
  if (trail) {
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
