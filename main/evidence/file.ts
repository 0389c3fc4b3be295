import { createHash, X509Certificate } from 'node:crypto';
import type { AuditEntry } from '../../common/views';
import type { CrossDocResponse, RawIdvResponse } from '../../common/omni';
import type { EvidenceLanguage } from '../../common/ipc/evidence';
import type { ChainLink, MainContext } from '../ports';
import type { Nom151Verification } from '../../common/ipc/nom151';
import { ReviewError } from '../errors';
import { nom151Service } from '../nom151/service';
import { unwrapTimeStampResp } from '../nom151/pdf';
import { decodeEvidenceText } from '../nom151/verify';
import { plainText } from '../plain-text';
import { osAccount, personOf } from '../review/person';
import { contractsToOpen } from '../review/media';
import { reviewReportPdf, type Outcome } from '../review/report';
import { reviewService } from '../review/service';
import { errorData } from '../review/errors';
import { detailOf, statementOf, trailCheckpoints } from '../trail/checkpoints';
import { verifyText, type VerifyPlan } from './verify-text';
import { repeatedPath, writeZip, type ZipPart } from './zip';

/**
 * One interview's evidence file: a stored ZIP (docs/evidence.md says why not a PDF/A-3) holding the review report,
 * the decision history, the notes and names as sent with the service's answers, the interview's audit entries with
 * the proof that each is in the trail (its exact hashed bytes, the checkpoint statement listing its hash, the
 * statement's RFC 3161 token), the NOM-151 evidence of its signed contracts, a manifest with the SHA-256 of every part
 * stamped by the provider at the export, and VERIFY.txt. Personal data only as this interview holds it: the
 * statements list other entries' hashes, never their content.
 */

export const FORMAT = 'omni-reviewer.evidence';
export const MANIFEST = 'MANIFEST.sha256';
export const MANIFEST_TOKEN = 'MANIFEST.tst';
export const ROOTS = 'nom151-root.pem';

export interface ExportRequest {
  interviewId: string;
  language: EvidenceLanguage;
  purpose: string;
}

/** Who exports, when, and the audit entry that says so (it is in the file, with its proof). */
export interface ExportStamp {
  by: string;
  at: string;
}

/** What `export.json` says: read back by the app's verifier. */
export interface ExportInfo {
  format: typeof FORMAT;
  /** 2: each contract's parts are named after its place in `contracts` (`contractPaths`); 1 named them by id alone. */
  version: 2;
  interviewId: string;
  environment: { id: string; name: string; kind: string };
  exportedAt: string;
  exportedBy: string;
  purpose: string;
  language: EvidenceLanguage;
  /** The audit entry recording this export (it is among the file's entries). */
  exportEntry: number;
  /** Entries whose inclusion no statement proves, and why (VERIFY.txt says the same). */
  unproved: VerifyPlan['unproved'];
  /** Each entry's proof: the checkpoint whose statement lists its hash. */
  proofs: { seq: number; checkpoint: number }[];
  contracts: string[];
  contractsUnavailable?: { en: string; es: string; service?: string };
}

/** The login (team) or OS account that exports: the same name the notes and reports use. */
export async function exporterName(ctx: MainContext): Promise<string> {
  if (ctx.record.engine === 'team')
    return (await ctx.record.teamSettings.whoAmI().catch(() => undefined))?.user ?? osAccount() ?? 'unknown';
  return osAccount() ?? 'this computer';
}

/** Records the export as an audit entry of the interview, before the checkpoint that covers it. */
export function recordExport(
  ctx: MainContext,
  request: ExportRequest,
  by: string,
  batch?: { from: string; to: string },
): Promise<AuditEntry> {
  return ctx.audit.append({
    interviewId: request.interviewId,
    action: 'downloaded',
    detail: {
      what: 'evidenceFile',
      purpose: request.purpose,
      by,
      language: request.language,
      ...(batch ? { periodFrom: batch.from, periodTo: batch.to } : {}),
    },
  });
}

/**
 * The file as written, on the trail: its manifest's SHA-256, by the exporter, right after the file is built. A stamp
 * proves when, not who, so a file rewritten and stamped again passes VERIFY.txt's commands; the app's Verify finds it
 * by this record (the export entry is inside the file, so the file cannot hold its own manifest's hash).
 */
export function recordManifest(ctx: MainContext, exportEntry: AuditEntry, manifestSha256: string): Promise<AuditEntry> {
  return ctx.audit.append({
    ...(exportEntry.interviewId !== undefined ? { interviewId: exportEntry.interviewId } : {}),
    action: 'downloaded',
    detail: { what: 'evidenceManifest', sha256: manifestSha256, exportEntry: exportEntry.seq },
  });
}

/**
 * The export entry's file did not leave, or not whole: the save was cancelled, or building, writing or saving it
 * failed. The manifest recorded before it (if any) is then of no file, and the trail says so.
 */
export function recordNotWritten(
  ctx: MainContext,
  exportEntry: AuditEntry,
  why: 'cancelled' | { error: string },
): Promise<AuditEntry> {
  return ctx.audit.append({
    ...(exportEntry.interviewId !== undefined ? { interviewId: exportEntry.interviewId } : {}),
    action: 'downloaded',
    detail: {
      what: 'evidenceNotWritten',
      exportEntry: exportEntry.seq,
      ...(why === 'cancelled' ? { reason: 'cancelled' } : { error: plainText(why.error, 300) }),
    },
  });
}

/** Statements rebuilt from the trail, a few at a time: a batch's files share their checkpoint. */
export class StatementCache {
  private readonly kept = new Map<number, string>();
  async get(ctx: MainContext, checkpoint: AuditEntry): Promise<string> {
    const known = this.kept.get(checkpoint.seq);
    if (known !== undefined) return known;
    const statement = await statementOf(ctx.audit, checkpoint);
    if (this.kept.size >= 4) this.kept.delete(this.kept.keys().next().value as number);
    this.kept.set(checkpoint.seq, statement);
    return statement;
  }
}

const utf8 = (text: string) => new TextEncoder().encode(text);
/** The bare token's DER (what `openssl ts -verify -token_in` reads), from the service's text (base64, PEM, a reply). */
export const tokenDer = (text: string) => unwrapTimeStampResp(decodeEvidenceText(utf8(text)));
const json = (value: unknown) => utf8(`${JSON.stringify(value, null, 2)}\n`);
const sha256Hex = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');
/** A part's name from an id: what the file's paths may hold. Not one to one (`c:1` and `c_1`), so never a name alone. */
export const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80) || 'x';

/**
 * A contract's parts: its place in export.json's `contracts` (from 1), then its id as `safe` folds it. The place makes
 * the name unique whatever the ids (two that fold alike, or share their first 80 characters); the id is export.json's.
 */
export function contractPaths(index: number, count: number, documentId: string): { pdf: string; token: string } {
  const name = `contracts/${String(index + 1).padStart(Math.max(2, String(count).length), '0')}-${safe(documentId)}`;
  return { pdf: `${name}.pdf`, token: `${name}.tst` };
}

/**
 * The file's name: the interview's id as `safe` folds it, cut to 60, then the first 12 hex digits of its SHA-256, so
 * two interviews of one batch (`case:7` and `case_7`, or ids alike in their first 80 characters) never share one.
 */
export function evidenceFileName(interviewId: string, at: string): string {
  const id = createHash('sha256').update(interviewId, 'utf8').digest('hex').slice(0, 12);
  return `evidence-${safe(interviewId).slice(0, 60)}-${id}-${at.slice(0, 19).replace(/[:T]/g, '-')}.zip`;
}

async function outcome<T>(p: Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, data: await p };
  } catch (err) {
    return { ok: false, error: errorData(err).message };
  }
}

/**
 * Builds the file once the export is recorded (`exportEntry`, the interview's last entry); each entry's checkpoint is
 * looked up once one covers the export (`covered`), so every entry in the file is proved in the trail.
 */
export async function buildEvidenceFile(
  ctx: MainContext,
  request: ExportRequest,
  stamp: ExportStamp,
  exportEntry: AuditEntry,
  /** Settles once a checkpoint covers the export's entry (the batch's is taken already; one file's is taken now). */
  covered: Promise<unknown>,
  statements: StatementCache,
): Promise<{ fileName: string; data: Uint8Array; manifestSha256: string }> {
  const { interviewId, language } = request;
  // A file given up before it waits for its checkpoint leaves the checkpoint to go on: its failure is not this file's.
  covered.catch(() => undefined);
  const env = ctx.environments.active();
  const environment = { id: env.id, name: env.name, kind: env.kind };
  // The file carries the interview's whole trail and every write to the service with its answer, held in main while it is made: past
  // a size no interview reaches by review, it is refused before anything is read (red team 16: a login's 2,000
  // entries of 256 KiB on one interview took the exporter's main to 1.3 GB).
  const [trailBytes, writeBytes] = await Promise.all([
    ctx.audit.interviewBytes(interviewId),
    ctx.record.writes.writeBytes(env.id, interviewId),
  ]);
  if (trailBytes + writeBytes > MAX_RECORD_BYTES) throw recordTooLarge(interviewId, trailBytes + writeBytes);
  const omni = ctx.omni();
  const review = reviewService(ctx);
  const nom151 = nom151Service(ctx);

  // What the service says does not wait for the trail: it is read while the checkpoint covering the export is taken.
  const fromService = Promise.all([
    outcome<RawIdvResponse>(
      omni.call('getRawIdvResults', { query: { id: interviewId }, body: undefined }, { interviewId }),
    ),
    outcome<CrossDocResponse>(
      omni.call('getCrossDocResults', { query: { id: interviewId }, body: undefined }, { interviewId }),
    ),
    contractEvidence(ctx, interviewId),
    nom151.trustedRootsPem(),
  ]);
  const fromRecord = Promise.all([
    ctx.record.decisions.all(env.id, interviewId),
    ctx.record.writes.history(env.id, interviewId),
    review.queue.get(interviewId),
  ]);
  // The interview's entries are all written already (the export's is the last): they are read, and the report made,
  // while the checkpoint is taken; only finding each entry's checkpoint waits for it.
  const fromTrail = Promise.all([
    ctx.audit.list({ interviewId }),
    ctx.audit.chain({ interviewId, preimages: true }),
    ctx.audit.verify(),
  ]);
  const reported = Promise.all([fromService, fromRecord, fromTrail]).then(
    ([[rawIdv, crossDoc], [decisions, , entry], [entries, , chain]]) => {
      const decision = decisions.at(-1);
      return reviewReportPdf({
        language,
        interviewId,
        environment,
        generatedAt: stamp.at,
        ...(entry ? { entry } : {}),
        rawIdv,
        crossDoc,
        audit: { entries, chain },
        ...(decision ? { decision } : {}),
        person: personOf(ctx),
      });
    },
  );
  // A checkpoint whose token is not the provider's (anyone's app may write one) proves nothing: not offered as proof.
  const checkpoints = trailCheckpoints(ctx);
  const holding = new Map<number, Promise<boolean>>();
  const holds = (checkpoint: AuditEntry) => {
    if (!holding.has(checkpoint.seq)) holding.set(checkpoint.seq, checkpoints.holds(checkpoint));
    return holding.get(checkpoint.seq)!;
  };
  const proves = async (checkpoint: AuditEntry, seq: number) => {
    const d = detailOf(checkpoint);
    return d.statement === 2 && (d.from ?? Infinity) <= seq && (await holds(checkpoint));
  };
  const proved = Promise.all([covered, fromTrail]).then(([, [, links]]) => coveringCheckpoints(ctx, links, proves));
  const [[, , contracts, roots], [decisions, writes], [entries, links, chain], report, covering] = await Promise.all([
    fromService,
    fromRecord,
    fromTrail,
    reported,
    proved,
  ]);

  // Each entry's proof: the first checkpoint at or after it; a statement of version 2 lists it when it starts at or
  // before it. A head-only checkpoint of an earlier version proves its head alone.
  const parts: ZipPart[] = [];
  const plan: VerifyPlan = {
    fileName: '',
    interviewId,
    exportedAt: stamp.at,
    exportedBy: stamp.by,
    purpose: request.purpose,
    rootFingerprints: roots.map(fingerprint),
    checkpoints: [],
    entries: [],
    unproved: [],
    contracts: [],
    ...(contracts.unavailable ? { contractsUnavailable: contracts.unavailable[language] } : {}),
  };
  const proofs: ExportInfo['proofs'] = [];
  const used = new Map<number, AuditEntry>();
  const entryParts: ZipPart[] = [];
  for (const link of links) {
    const checkpoint = covering.get(link.seq);
    const d = checkpoint && detailOf(checkpoint);
    entryParts.push({ path: `trail/entries/${link.seq}.txt`, data: utf8(link.preimage ?? '') });
    if (!checkpoint || !d) {
      plan.unproved.push({ seq: link.seq, why: 'no-checkpoint' });
      continue;
    }
    if (d.statement !== 2 || (d.from ?? Infinity) > link.seq) {
      plan.unproved.push({ seq: link.seq, why: 'v1-checkpoint' });
      continue;
    }
    if (!(await holds(checkpoint))) {
      plan.unproved.push({ seq: link.seq, why: 'bad-checkpoint' });
      continue;
    }
    used.set(checkpoint.seq, checkpoint);
    proofs.push({ seq: link.seq, checkpoint: checkpoint.seq });
    plan.entries.push({
      seq: link.seq,
      preimage: `trail/entries/${link.seq}.txt`,
      statement: `trail/checkpoints/${checkpoint.seq}.statement.txt`,
    });
  }
  const checkpointParts: ZipPart[] = [];
  for (const checkpoint of [...used.values()].sort((a, b) => a.seq - b.seq)) {
    const statement = `trail/checkpoints/${checkpoint.seq}.statement.txt`;
    const token = `trail/checkpoints/${checkpoint.seq}.tst`;
    checkpointParts.push(
      { path: statement, data: utf8(await statements.get(ctx, checkpoint)) },
      { path: token, data: tokenDer(String(detailOf(checkpoint).token)) },
    );
    plan.checkpoints.push({ seq: checkpoint.seq, statement, token });
  }
  const contractParts: ZipPart[] = [];
  for (const [i, c] of contracts.items.entries()) {
    const { pdf, token } = contractPaths(i, contracts.items.length, c.documentId);
    contractParts.push({ path: pdf, data: c.pdf }, { path: token, data: c.token });
    plan.contracts.push({ documentId: c.documentId, pdf, token });
  }

  const info: ExportInfo = {
    format: FORMAT,
    version: 2,
    interviewId,
    environment,
    exportedAt: stamp.at,
    exportedBy: stamp.by,
    purpose: request.purpose,
    language,
    exportEntry: exportEntry.seq,
    unproved: plan.unproved,
    proofs,
    contracts: contracts.items.map((c) => c.documentId),
    ...(contracts.unavailable ? { contractsUnavailable: contracts.unavailable } : {}),
  };
  const fileName = evidenceFileName(interviewId, stamp.at);
  plan.fileName = fileName;
  parts.push(
    { path: 'VERIFY.txt', data: utf8(verifyText(plan, language)) },
    { path: 'export.json', data: json(info) },
    { path: 'report.pdf', data: report },
    { path: 'decisions.json', data: json({ interviewId, decisions }) },
    { path: 'service-writes.json', data: json({ interviewId, writes }) },
    { path: 'trail/entries.json', data: json({ interviewId, chain, entries }) },
    ...entryParts,
    ...checkpointParts,
    ...contractParts,
    { path: ROOTS, data: utf8(roots.join('')) },
  );
  // Two parts under one name would fail every check of the file: refused before the manifest is stamped.
  const twice = repeatedPath(parts.map((p) => p.path));
  if (twice !== undefined) throw partsCollide(twice);
  const manifest = utf8(parts.map((p) => `${sha256Hex(p.data)}  ${p.path}\n`).join(''));
  // Stamped by the service's NOM-151 signing, and checked here before the file leaves: a stamp that does not verify
  // would fail the auditor's first step.
  const manifestText = new TextDecoder().decode(manifest);
  const stamped = await omni.call('signStringNom151', { body: { stringToSign: manifestText } });
  parts.push({ path: MANIFEST, data: manifest }, { path: MANIFEST_TOKEN, data: tokenDer(stamped.signedString) });
  const [check, data] = await Promise.all([
    nom151.verifyStamp(stamped.signedString, manifestText),
    Promise.resolve().then(() => writeZip(parts)),
  ]);
  if (check.checks.imprint !== 'passed' || check.checks.signature !== 'passed') throw manifestNotStamped(check);
  return { fileName, data, manifestSha256: sha256Hex(manifest) };
}

/**
 * Each entry's covering checkpoint: the first checkpoint whose head is at or after it. Checkpoints are entries written
 * after what they cover, so they are looked for after each entry, a few at a time, and one serves every entry up to
 * its head: a handful of reads however long the trail, none holding it.
 */
async function coveringCheckpoints(
  ctx: MainContext,
  links: ChainLink[],
  proves: (checkpoint: AuditEntry, seq: number) => Promise<boolean>,
): Promise<Map<number, AuditEntry>> {
  const found = new Map<number, AuditEntry>();
  let current: AuditEntry | undefined;
  for (const link of links) {
    if (current && detailOf(current).seq >= link.seq && (await proves(current, link.seq))) {
      found.set(link.seq, current);
      continue;
    }
    // The first that covers it and proves it; a junk one may come first, with the genuine one of its stretch after it
    // (main/trail/checkpoints.ts). None proving it: the first covering it, to say why.
    let first: AuditEntry | undefined;
    let candidates = 0;
    current = undefined;
    for (let after = link.seq; !current && candidates < COVERING_CANDIDATES;) {
      const next = await ctx.audit.list({ action: 'checkpoint', afterSeq: after, limit: 4 });
      for (const checkpoint of next.filter((c) => detailOf(c).seq >= link.seq)) {
        first ??= checkpoint;
        if (++candidates > COVERING_CANDIDATES) break;
        if (await proves(checkpoint, link.seq)) {
          current = checkpoint;
          break;
        }
      }
      if (next.length < 4) break;
      after = next.at(-1)!.seq;
    }
    const chosen = current ?? first;
    if (chosen) found.set(link.seq, chosen);
  }
  return found;
}

/** How many checkpoints covering an entry are tried for one that proves it, before it is called unproved. */
const COVERING_CANDIDATES = 16;

/** `AB:CD:…` as `openssl x509 -noout -fingerprint -sha256` prints it. */
function fingerprint(pem: string): string {
  try {
    return new X509Certificate(pem).fingerprint256;
  } catch {
    return '?';
  }
}

interface ContractEvidence {
  items: { documentId: string; pdf: Uint8Array; token: Uint8Array }[];
  unavailable?: { en: string; es: string; service?: string };
}

/**
 * The NOM-151 evidence of each of the interview's signed contracts, as the service gives it at the export: the
 * contract's exact bytes and the token over them. A service that cannot list or seal them now is said in the file, in
 * its own words, rather than stopping the export.
 */
async function contractEvidence(ctx: MainContext, interviewId: string): Promise<ContractEvidence> {
  const omni = ctx.omni();
  try {
    const links = await omni.call('getContractLinks', { query: { id: interviewId }, body: undefined }, { interviewId });
    // Each contract the file can carry is carried; the others are named in it, never left out as if there were none,
    // nor taking the readable ones' evidence with them (red teams 18 and 19).
    const { links: openable, unreadable } = contractsToOpen(links);
    const sealed = await Promise.all(
      openable.map(([documentId]) =>
        omni.call('calculateContractNom151', {
          body: { signedContractId: documentId, includeSignedDocumentInResponse: true },
        }),
      ),
    );
    const items: ContractEvidence['items'] = [];
    const unsealed: string[] = [];
    for (const [i, [documentId]] of openable.entries()) {
      const info = sealed[i]!.additionalInformation ?? {};
      if (!info.signedDocumentNom151 || !info.signedDocumentBase64) {
        unsealed.push(documentId);
        continue;
      }
      items.push({
        documentId,
        pdf: Buffer.from(info.signedDocumentBase64, 'base64'),
        token: tokenDer(info.signedDocumentNom151),
      });
    }
    const reasons = [
      ...(unreadable.length > 0 ? [notReadable(unreadable)] : []),
      ...(unsealed.length > 0 ? [notSealed(unsealed)] : []),
    ];
    if (reasons.length === 0) return { items };
    return {
      items,
      unavailable: { en: reasons.map((r) => r.en).join(' '), es: reasons.map((r) => r.es).join(' ') },
    };
  } catch (err) {
    const data = errorData(err);
    const said = data.details?.serviceMessage;
    return {
      items: [],
      unavailable: { ...data.message, ...(typeof said === 'string' ? { service: said } : {}) },
    };
  }
}

function manifestNotStamped(check: Nom151Verification): ReviewError {
  return new ReviewError(
    'EVIDENCE_NOT_STAMPED',
    {
      en: 'The service’s NOM-151 stamp of the file’s manifest does not verify, so the file was not written.',
      es: 'El sello NOM-151 del servicio sobre el manifiesto del archivo no se verifica, así que el archivo no se escribió.',
    },
    {
      en: 'Try again; if it persists, check the environment’s trusted provider roots (Signing).',
      es: 'Inténtalo de nuevo; si persiste, revisa las raíces de proveedor de confianza del ambiente (Firma).',
    },
    { retryable: true, details: { serviceMessage: check.failure?.message.en ?? '' } },
  );
}

/** What one evidence file may carry of the trail's details and the service's answers. */
const MAX_RECORD_BYTES = 64 * 1024 * 1024;

function recordTooLarge(interviewId: string, bytes: number): ReviewError {
  const mb = Math.ceil(bytes / 2 ** 20);
  return new ReviewError(
    'EVIDENCE_RECORD_TOO_LARGE',
    {
      en: `The record of interview ${interviewId} holds ${mb} MB of trail entries and service answers, more than an evidence file carries (64 MB), so no file was made.`,
      es: `El registro de la entrevista ${interviewId} tiene ${mb} MB de entradas de la bitácora y respuestas del servicio, más de lo que lleva un expediente de evidencia (64 MB), así que no se hizo ningún archivo.`,
    },
    {
      en: 'A review writes far less: search the team’s audit trail for this interview to see who wrote such entries.',
      es: 'Una revisión escribe mucho menos: busca esta entrevista en la bitácora del equipo para ver quién escribió esas entradas.',
    },
  );
}

function partsCollide(path: string): ReviewError {
  return new ReviewError(
    'EVIDENCE_PARTS_COLLIDE',
    {
      en: `Two parts of the evidence file would be named ${path}, so it was not stamped or written.`,
      es: `Dos partes del expediente de evidencia se llamarían ${path}, así que no se selló ni se escribió.`,
    },
    {
      en: 'Report this to the app’s maintainers, with the interview id.',
      es: 'Repórtalo a quienes mantienen la aplicación, con el ID de la entrevista.',
    },
  );
}

const notReadable = (ids: string[]) => ({
  en: `The service listed contract ${ids.join(', ')} with a link the app cannot open.`,
  es: `El servicio listó el contrato ${ids.join(', ')} con un enlace que la app no puede abrir.`,
});

const notSealed = (ids: string[]) => ({
  en: `The service answered without the NOM-151 evidence or the signed document of contract ${ids.join(', ')}.`,
  es: `El servicio respondió sin la constancia NOM-151 o sin el documento firmado del contrato ${ids.join(', ')}.`,
});
