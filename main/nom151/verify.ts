import 'reflect-metadata';
import { createHash } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import * as x509 from '@peculiar/x509';
import { OID, equalBytes, ownBuffer, toHex } from './asn1';
import { extractEvidence, unwrapTimeStampResp, visiblePagesMatch } from './pdf';
import { PdfTooComplex } from './reader-view';
import { isSingleRevision, onlyEvidenceAdded } from './update';
import type {
  Bilingual,
  CheckOutcome,
  Nom151CheckId,
  Nom151Failure,
  Nom151FailureCode,
  Nom151TokenDetails,
  Nom151Verification,
} from '../../common/ipc/nom151';

/**
 * Offline verification of NOM-151 evidence (an RFC 3161 time-stamp token): nothing here touches the network.
 * Every check runs when it can, so the result lists all that failed; `failure` is the most fundamental one.
 */

export interface VerifyInput {
  /** The evidence: DER token or TimeStampResp (`.tsr`, `.asn1`), its base64 text, or a sealed PDF. */
  evidence: Uint8Array;
  /** The document the evidence is for. Optional for sealed PDFs, which carry the original. */
  document?: Uint8Array;
  trustedRootsPem: string[];
}

const PRIORITY: Nom151FailureCode[] = [
  'UNREADABLE_PDF',
  'PDF_TOO_COMPLEX',
  'NO_EVIDENCE_IN_PDF',
  'MALFORMED_EVIDENCE',
  'UNSUPPORTED_HASH',
  'BAD_SIGNATURE',
  'UNTRUSTED_CERTIFICATE',
  'NOT_A_TSA_CERTIFICATE',
  'EXPIRED_CERTIFICATE',
  'CHANGED_AFTER_SEALING',
  'SEALED_PAGES_DIFFER',
  'NO_DOCUMENT',
  'HASH_MISMATCH',
];

const HASHES: Record<string, string> = {
  '1.3.14.3.2.26': 'SHA-1',
  [OID.sha256]: 'SHA-256',
  '2.16.840.1.101.3.4.2.2': 'SHA-384',
  '2.16.840.1.101.3.4.2.3': 'SHA-512',
};

export async function verifyEvidence(input: VerifyInput): Promise<Nom151Verification> {
  const checks: Record<Nom151CheckId, CheckOutcome> = {
    imprint: 'not-run',
    signature: 'not-run',
    chain: 'not-run',
    validity: 'not-run',
    usage: 'not-run',
  };
  const failures: Nom151Failure[] = [];
  let sealedPages: Nom151Verification['sealedPages'];
  const finish = (
    partial: Omit<Nom151Verification, 'valid' | 'failures' | 'checks' | 'failure'>,
  ): Nom151Verification => {
    failures.sort((a, b) => PRIORITY.indexOf(a.code) - PRIORITY.indexOf(b.code));
    const valid = failures.length === 0 && Object.values(checks).every((c) => c === 'passed');
    return {
      valid,
      ...(failures[0] ? { failure: failures[0] } : {}),
      failures,
      checks,
      ...partial,
      ...(sealedPages ? { sealedPages } : {}),
    };
  };

  // The pages a reader sees can only be vouched for when nothing but the evidence was added after the seal.
  const changedAfterSealing = () => {
    sealedPages = 'differ';
    failures.push(failure('CHANGED_AFTER_SEALING'));
  };

  // The pages a reader sees, against the original's; a file that decodes past the limits is not compared.
  const comparePages = async (sealed: Uint8Array, original: Uint8Array) => {
    try {
      sealedPages = (await visiblePagesMatch(sealed, original)) ? 'match' : 'differ';
    } catch (error) {
      sealedPages = 'differ';
      if (error instanceof PdfTooComplex) return void failures.push(failure('PDF_TOO_COMPLEX'));
    }
    if (sealedPages === 'differ') failures.push(failure('SEALED_PAGES_DIFFER'));
  };

  // 1. Where the token and the document come from.
  let tokenDer: Uint8Array;
  let evidenceKind: Nom151Verification['source']['evidence'];
  let document = input.document;
  let documentKind: Nom151Verification['source']['document'] = document ? 'given' : 'none';
  let revisions: Uint8Array[] = [];
  if (isPdf(input.evidence)) {
    let extracted: Awaited<ReturnType<typeof extractEvidence>>;
    try {
      extracted = await extractEvidence(input.evidence);
    } catch {
      failures.push(failure('UNREADABLE_PDF'));
      return finish({ source: { evidence: 'sealed-pdf', document: documentKind } });
    }
    if (!extracted) {
      failures.push(failure('NO_EVIDENCE_IN_PDF'));
      return finish({ source: { evidence: 'sealed-pdf', document: documentKind } });
    }
    tokenDer = extracted.tokenDer;
    evidenceKind = 'sealed-pdf';
    // The sealed file itself can never match the imprint (see docs/nom151.md): use the original it carries,
    // unless the user gave a different file to check against the evidence.
    if (!document || equalBytes(document, input.evidence)) {
      document = extracted.originalPdf;
      documentKind = document ? 'embedded-original' : 'none';
      // The standard layout: the original's bytes unchanged, then incremental updates that embed the evidence.
      if (!document) {
        revisions = earlierRevisions(input.evidence);
        if (revisions.length > 0) documentKind = 'original-revision';
      }
      if (document) {
        await comparePages(input.evidence, document);
        // attachEvidence writes one full revision: any update after it is a change the page check may not see.
        if (!(await isSingleRevision(input.evidence))) changedAfterSealing();
      }
    }
  } else {
    const der = decodeEvidenceText(input.evidence);
    tokenDer = unwrapTimeStampResp(der);
    evidenceKind = tokenDer === der ? 'token' : 'timestamp-response';
  }

  // 2. Parse the token.
  const parsed = parseToken(tokenDer);
  if (!parsed) {
    failures.push(failure('MALFORMED_EVIDENCE'));
    return finish({ source: { evidence: evidenceKind, document: documentKind } });
  }
  const { signerInfo, tstInfo, tstInfoDer, signerCert, signerPkijs, tokenCerts } = parsed;
  const genTime = tstInfo.genTime;
  const hashName = HASHES[tstInfo.messageImprint.hashAlgorithm.algorithmId];
  const imprint = new Uint8Array(tstInfo.messageImprint.hashedMessage.valueBlock.valueHexView);

  // 3. The document's hash against the imprint.
  let documentHashHex: string | undefined;
  if (!hashName) {
    failures.push(failure('UNSUPPORTED_HASH'));
    checks.imprint = 'failed';
  } else if (!document && revisions.length === 0) {
    failures.push(failure('NO_DOCUMENT'));
  } else {
    if (!document) {
      // The original is the earlier revision the imprint names; failing that, the latest one, to report the mismatch.
      document = revisionNamed(revisions, hashName, imprint) ?? revisions[revisions.length - 1]!;
      await comparePages(input.evidence, document);
      if (!(await onlyEvidenceAdded(input.evidence, document))) changedAfterSealing();
    }
    const digest = new Uint8Array(await globalThis.crypto.subtle.digest(hashName, ownBuffer(document)));
    documentHashHex = toHex(digest);
    checks.imprint = equalBytes(digest, imprint) ? 'passed' : 'failed';
    if (checks.imprint === 'failed') failures.push(failure('HASH_MISMATCH'));
  }

  // 4. The provider's signature over the TSTInfo (signed attributes, message digest, ESS signer binding).
  checks.signature = (await signatureHolds(signerInfo, signerCert, signerPkijs, tstInfoDer)) ? 'passed' : 'failed';
  if (checks.signature === 'failed') failures.push(failure('BAD_SIGNATURE'));

  // 5. The provider certificate: time-stamping usage, chain to a trusted root, validity at genTime.
  checks.usage = isTimeStampingCertificate(signerCert) ? 'passed' : 'failed';
  if (checks.usage === 'failed') failures.push(failure('NOT_A_TSA_CERTIFICATE'));

  const chain = await buildChain(signerCert, tokenCerts, parseRoots(input.trustedRootsPem));
  checks.chain = chain ? 'passed' : 'failed';
  if (!chain) failures.push(failure('UNTRUSTED_CERTIFICATE'));
  const toCheck = chain ?? [signerCert];
  checks.validity = toCheck.every(
    (c) => c.notBefore.getTime() <= genTime.getTime() && genTime.getTime() <= c.notAfter.getTime(),
  )
    ? 'passed'
    : 'failed';
  if (checks.validity === 'failed') failures.push(failure('EXPIRED_CERTIFICATE'));

  const details: Nom151TokenDetails = {
    // DER pads positive integers whose top bit is set with a zero byte; the folio is the number, as OpenSSL prints it.
    serial: toHex(new Uint8Array(tstInfo.serialNumber.valueBlock.valueHexView))
      .replace(/^(00)+(?=..)/, '')
      .toUpperCase(),
    genTime: genTime.toISOString(),
    policy: tstInfo.policy,
    hashAlgorithm: hashName ?? tstInfo.messageImprint.hashAlgorithm.algorithmId,
    imprintHex: toHex(imprint),
    provider: signerCert.subject,
    providerIssuer: signerCert.issuer,
    providerNotBefore: signerCert.notBefore.toISOString(),
    providerNotAfter: signerCert.notAfter.toISOString(),
    chain: (chain ?? []).map((c) => c.subject),
  };
  return finish({
    details,
    ...(documentHashHex ? { documentHashHex } : {}),
    source: { evidence: evidenceKind, document: documentKind },
  });
}

interface ParsedToken {
  signerInfo: pkijs.SignerInfo;
  tstInfo: pkijs.TSTInfo;
  tstInfoDer: Uint8Array;
  signerCert: x509.X509Certificate;
  /** The same certificate as pkijs read it: its key checks the signature. */
  signerPkijs: pkijs.Certificate;
  tokenCerts: x509.X509Certificate[];
}

/**
 * Certificates read before, by their DER: a provider signs every token with the same certificate under the same root,
 * and reading one (or checking one's signature by its issuer) costs milliseconds each time. The answers depend on the
 * bytes alone; kept for a few dozen certificates, oldest forgotten first.
 */
const KEPT = 64;
function remember<V>(map: Map<string, V>, key: string, make: () => V): V {
  if (map.has(key)) return map.get(key)!;
  const value = make();
  if (map.size >= KEPT) map.delete(map.keys().next().value as string);
  map.set(key, value);
  return value;
}
const rootCertificates = new Map<string, x509.X509Certificate>();
const derKey = (der: Uint8Array) => Buffer.from(der.buffer, der.byteOffset, der.byteLength).toString('base64');
/** Whether `issuer`'s key verifies `cert`'s signature, by both certificates' bytes. */
const issuedBy = new Map<string, Promise<boolean>>();

/** `null` for anything that is not a complete, well-formed RFC 3161 token with its signer certificate. */
function parseToken(der: Uint8Array): ParsedToken | null {
  try {
    const asn1 = asn1js.fromBER(ownBuffer(der));
    if (asn1.offset === -1 || asn1.offset !== der.byteLength) return null; // truncated or trailing garbage
    // ContentInfo and SignedData (RFC 5652 §3, §5.1) are walked here: pkijs's matching of the whole SignedData schema
    // cost more than the rest of a verification. Their parts are still read by pkijs, each against its own schema.
    const [contentType, content, ...extra] = childrenOf(asn1.result);
    if (extra.length > 0 || !isOid(contentType, OID.signedData) || !isContext(content, 0)) return null;
    const [signedData, ...more] = childrenOf(content);
    if (more.length > 0 || !(signedData instanceof asn1js.Sequence)) return null;
    const [version, digestAlgorithms, encap, ...rest] = childrenOf(signedData);
    const signerInfos = rest.pop();
    if (
      !(version instanceof asn1js.Integer) ||
      !(digestAlgorithms instanceof asn1js.Set) ||
      !(encap instanceof asn1js.Sequence) ||
      !(signerInfos instanceof asn1js.Set) ||
      !rest.every((n) => isContext(n, 0) || isContext(n, 1))
    )
      return null;
    const encapContentInfo = new pkijs.EncapsulatedContentInfo({ schema: encap });
    if (encapContentInfo.eContentType !== OID.tstInfo) return null;
    const eContent = encapContentInfo.eContent;
    const signers = childrenOf(signerInfos);
    if (!eContent || signers.length !== 1) return null;
    const signerInfo = new pkijs.SignerInfo({ schema: signers[0] });
    const tstInfoDer = new Uint8Array(eContent.getValue());
    const tstInfo = pkijs.TSTInfo.fromBER(ownBuffer(tstInfoDer));
    // CertificateChoices: plain certificates are SEQUENCEs; the other choices are tagged and not used here.
    const certs = childrenOf(rest.find((n) => isContext(n, 0)))
      .filter((n) => n instanceof asn1js.Sequence)
      .map((n) => tokenCertificate(new Uint8Array(n.valueBeforeDecodeView)));
    const signer = certs.find((c) => identifiesSigner(signerInfo.sid, c.pkijs));
    if (!signer) return null;
    return {
      signerInfo,
      tstInfo,
      tstInfoDer,
      signerCert: signer.x509,
      signerPkijs: signer.pkijs,
      tokenCerts: certs.map((c) => c.x509),
    };
  } catch {
    return null;
  }
}

const childrenOf = (node: unknown): asn1js.AsnType[] =>
  node instanceof asn1js.Constructed ? (node.valueBlock.value as asn1js.AsnType[]) : [];
const isContext = (node: unknown, tag: number): boolean =>
  node instanceof asn1js.Constructed && node.idBlock.tagClass === 3 && node.idBlock.tagNumber === tag;
const isOid = (node: unknown, oid: string): boolean =>
  node instanceof asn1js.ObjectIdentifier && node.valueBlock.toString() === oid;

/** A certificate a token carries, as both libraries read it, once per certificate. */
const tokenCertificates = new Map<string, { pkijs: pkijs.Certificate; x509: x509.X509Certificate }>();
const tokenCertificate = (der: Uint8Array) =>
  remember(tokenCertificates, derKey(der), () => ({
    pkijs: pkijs.Certificate.fromBER(ownBuffer(der)),
    x509: new x509.X509Certificate(ownBuffer(der)),
  }));

function identifiesSigner(sid: pkijs.SignerInfo['sid'], cert: pkijs.Certificate): boolean {
  if (sid instanceof pkijs.IssuerAndSerialNumber)
    return sid.issuer.isEqual(cert.issuer) && sid.serialNumber.isEqual(cert.serialNumber);
  // subjectKeyIdentifier form: compare with the certificate's SKI extension.
  const ski = cert.extensions?.find((e) => e.extnID === '2.5.29.14')?.parsedValue;
  return (
    ski instanceof asn1js.OctetString &&
    sid instanceof asn1js.Primitive &&
    equalBytes(new Uint8Array(ski.valueBlock.valueHexView), new Uint8Array(sid.valueBlock.valueHexView))
  );
}

async function signatureHolds(
  signerInfo: pkijs.SignerInfo,
  signerCert: x509.X509Certificate,
  signerPkijs: pkijs.Certificate,
  tstInfoDer: Uint8Array,
): Promise<boolean> {
  const attrs = signerInfo.signedAttrs?.attributes;
  if (!attrs) return false; // RFC 3161 tokens always carry signed attributes
  const attr = (type: string) => attrs.find((a) => a.type === type)?.values[0];
  const contentType = attr(OID.contentType);
  if (!(contentType instanceof asn1js.ObjectIdentifier) || contentType.valueBlock.toString() !== OID.tstInfo)
    return false;
  const digestName = HASHES[signerInfo.digestAlgorithm.algorithmId];
  const messageDigest = attr(OID.messageDigest);
  if (!digestName || !(messageDigest instanceof asn1js.OctetString)) return false;
  const contentDigest = new Uint8Array(await globalThis.crypto.subtle.digest(digestName, ownBuffer(tstInfoDer)));
  if (!equalBytes(contentDigest, new Uint8Array(messageDigest.valueBlock.valueHexView))) return false;
  if (!(await essBindingHolds(attr(OID.signingCertificateV2), attr(OID.signingCertificate), signerCert))) return false;
  // The signature covers the DER of the signed attributes (re-tagged as SET); pkijs keeps those bytes as parsed.
  // (SignedData.verify is not used: for tokens it insists on checking the imprint itself, which we report apart.)
  const engine = pkijs.getCrypto(true);
  const rsaPkcs1 = signerInfo.signatureAlgorithm.algorithmId === '1.2.840.113549.1.1.1';
  try {
    return await engine.verifyWithPublicKey(
      signerInfo.signedAttrs!.encodedValue,
      signerInfo.signature,
      signerPkijs.subjectPublicKeyInfo,
      signerInfo.signatureAlgorithm,
      rsaPkcs1 ? digestName : undefined,
    );
  } catch {
    return false;
  }
}

/** ESS signing-certificate(-v2): the first ESSCertID's hash must be the hash of the certificate that signed. */
async function essBindingHolds(v2: unknown, v1: unknown, signerCert: x509.X509Certificate): Promise<boolean> {
  const value = v2 ?? v1;
  if (!value) return true; // optional in CMS; OpenSSL insists on it, we report what matters: the signature
  if (!(value instanceof asn1js.Sequence)) return false;
  const certs = value.valueBlock.value[0];
  const first = certs instanceof asn1js.Sequence ? certs.valueBlock.value[0] : undefined;
  if (!(first instanceof asn1js.Sequence)) return false;
  let hashName = v2 ? 'SHA-256' : 'SHA-1';
  let hashField = first.valueBlock.value[0];
  if (v2 && hashField instanceof asn1js.Sequence) {
    const algorithm = new pkijs.AlgorithmIdentifier({ schema: hashField });
    const named = HASHES[algorithm.algorithmId];
    if (!named) return false;
    hashName = named;
    hashField = first.valueBlock.value[1];
  }
  if (!(hashField instanceof asn1js.OctetString)) return false;
  const actual = new Uint8Array(
    await globalThis.crypto.subtle.digest(hashName, ownBuffer(new Uint8Array(signerCert.rawData))),
  );
  return equalBytes(actual, new Uint8Array(hashField.valueBlock.valueHexView));
}

function isTimeStampingCertificate(cert: x509.X509Certificate): boolean {
  const eku = cert.getExtension(x509.ExtendedKeyUsageExtension);
  return !!eku && eku.critical && eku.usages.length === 1 && eku.usages[0] === OID.timeStamping;
}

function parseRoots(pems: string[]): x509.X509Certificate[] {
  const roots: x509.X509Certificate[] = [];
  for (const pem of pems) {
    try {
      roots.push(remember(rootCertificates, pem, () => new x509.X509Certificate(pem)));
    } catch {
      // A broken stored root cannot anchor anything; the others still can.
    }
  }
  return roots;
}

/**
 * Path from the provider to a trusted root: each link's issuer name matches and its signature verifies with the
 * issuer's key; intermediates must be CAs. `null` when no trusted root is reached.
 */
async function buildChain(
  leaf: x509.X509Certificate,
  pool: x509.X509Certificate[],
  roots: x509.X509Certificate[],
): Promise<x509.X509Certificate[] | null> {
  const path = [leaf];
  let current = leaf;
  for (let depth = 0; depth < 8; depth++) {
    if (roots.some((r) => equalBytes(new Uint8Array(r.rawData), new Uint8Array(current.rawData)))) return path;
    const trustedIssuer = await findIssuer(current, roots);
    if (trustedIssuer) return [...path, trustedIssuer];
    const next = await findIssuer(
      current,
      pool.filter((c) => !path.includes(c) && c.subject !== current.subject),
    );
    if (!next) return null;
    path.push(next);
    current = next;
  }
  return null;
}

async function findIssuer(
  cert: x509.X509Certificate,
  candidates: x509.X509Certificate[],
): Promise<x509.X509Certificate | undefined> {
  for (const candidate of candidates) {
    if (candidate.subject !== cert.issuer || !isCa(candidate)) continue;
    const key = `${derKey(new Uint8Array(cert.rawData))}|${derKey(new Uint8Array(candidate.rawData))}`;
    const verified = remember(issuedBy, key, () =>
      // An unusable key or algorithm: not this issuer.
      cert.verify({ publicKey: candidate.publicKey, signatureOnly: true }).catch(() => false),
    );
    if (await verified) return candidate;
  }
  return undefined;
}

function isCa(cert: x509.X509Certificate): boolean {
  return cert.getExtension(x509.BasicConstraintsExtension)?.ca === true;
}

/**
 * Every earlier revision of an incrementally updated PDF, oldest first: the bytes up to each `%%EOF` marker but the
 * last, with or without the end-of-line after it (a writer may or may not count it as part of the file).
 */
export function earlierRevisions(pdf: Uint8Array): Uint8Array[] {
  const text = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).toString('latin1');
  const ends: number[] = [];
  for (let at = text.indexOf('%%EOF'); at !== -1; at = text.indexOf('%%EOF', at + 5)) ends.push(at + 5);
  const out: Uint8Array[] = [];
  for (const end of ends.slice(0, -1)) {
    out.push(pdf.subarray(0, end));
    if (text[end] === '\r' && text[end + 1] === '\n') out.push(pdf.subarray(0, end + 2));
    else if (text[end] === '\r' || text[end] === '\n') out.push(pdf.subarray(0, end + 1));
  }
  return out;
}

/**
 * The revision whose hash is the imprint. Revisions are prefixes of one file, shortest first: one pass over the file
 * hashes them all (each a copy of the running hash), where hashing each from the start took time in the square of the
 * number of `%%EOF` markers (a 200 KB file of markers, 10.7 s).
 */
function revisionNamed(revisions: Uint8Array[], hashName: string, imprint: Uint8Array): Uint8Array | undefined {
  const running = createHash(hashName.replace('-', '').toLowerCase());
  let hashed = 0;
  for (const revision of revisions) {
    running.update(revision.subarray(hashed));
    hashed = revision.length;
    if (equalBytes(new Uint8Array(running.copy().digest()), imprint)) return revision;
  }
  return undefined;
}

/** What the verifier's thread answers for a PDF that took more memory or time than its limits (verifier.ts). */
export function tooComplexToVerify(input: VerifyInput): Nom151Verification {
  const tooComplex = failure('PDF_TOO_COMPLEX');
  return {
    valid: false,
    failure: tooComplex,
    failures: [tooComplex],
    checks: { imprint: 'not-run', signature: 'not-run', chain: 'not-run', validity: 'not-run', usage: 'not-run' },
    source: { evidence: 'sealed-pdf', document: input.document ? 'given' : 'none' },
  };
}

export function isPdf(bytes: Uint8Array): boolean {
  // %PDF- may follow a little junk (ISO 32000 tolerates up to 1024 bytes before it).
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 1024));
  return head.includes('%PDF-');
}

/** Evidence arrives as DER, or as text: base64 (whitespace allowed) or PEM-style armour around base64. */
export function decodeEvidenceText(bytes: Uint8Array): Uint8Array {
  if (bytes[0] === 0x30) return bytes; // DER SEQUENCE
  const text = new TextDecoder('latin1')
    .decode(bytes)
    .replace(/-----(BEGIN|END)[^-]*-----/g, '')
    .replace(/\s+/g, '');
  if (text.length === 0 || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) return bytes;
  const decoded = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return decoded.length > 0 && decoded[0] === 0x30 ? new Uint8Array(decoded) : bytes;
}

const TEXT: Record<Nom151FailureCode, { message: Bilingual; advice: Bilingual }> = {
  MALFORMED_EVIDENCE: {
    message: {
      en: 'The evidence is not a readable RFC 3161 time-stamp token: it is truncated, damaged or not NOM-151 evidence.',
      es: 'La constancia no es un sello de tiempo RFC 3161 legible: está truncada, dañada o no es una constancia NOM-151.',
    },
    advice: {
      en: 'Load the .tsr, .asn1 or base64 file exactly as the provider delivered it, or the sealed PDF.',
      es: 'Carga el archivo .tsr, .asn1 o base64 tal como lo entregó el proveedor, o el PDF sellado.',
    },
  },
  UNREADABLE_PDF: {
    message: { en: 'The PDF could not be read.', es: 'No se pudo leer el PDF.' },
    advice: {
      en: 'Check that the file is a complete PDF (it may be truncated) and load it again.',
      es: 'Verifica que el archivo sea un PDF completo (puede estar truncado) y cárgalo de nuevo.',
    },
  },
  PDF_TOO_COMPLEX: {
    message: {
      en: 'The PDF was not verified: reading it took more memory or time than a contract needs.',
      es: 'El PDF no se verificó: leerlo requirió más memoria o tiempo de lo que necesita un contrato.',
    },
    advice: {
      en: 'Ask the provider for the evidence file (.tsr) and verify it with the original document.',
      es: 'Solicita al proveedor el archivo de constancia (.tsr) y verifícalo con el documento original.',
    },
  },
  NO_EVIDENCE_IN_PDF: {
    message: {
      en: 'This PDF carries no NOM-151 evidence (no constancia attached).',
      es: 'Este PDF no contiene constancia NOM-151 (no tiene la constancia adjunta).',
    },
    advice: {
      en: 'Load the sealed PDF, or load this document together with its evidence file.',
      es: 'Carga el PDF sellado, o carga este documento junto con su archivo de constancia.',
    },
  },
  NO_DOCUMENT: {
    message: {
      en: 'There is no document to compare with the evidence.',
      es: 'No hay documento para comparar con la constancia.',
    },
    advice: {
      en: 'Load the document the evidence was issued for.',
      es: 'Carga el documento para el que se emitió la constancia.',
    },
  },
  UNSUPPORTED_HASH: {
    message: {
      en: 'The evidence uses a hash algorithm this app does not check.',
      es: 'La constancia usa un algoritmo de hash que esta aplicación no verifica.',
    },
    advice: {
      en: 'Ask the provider for evidence with SHA-256.',
      es: 'Solicita al proveedor una constancia con SHA-256.',
    },
  },
  BAD_SIGNATURE: {
    message: {
      en: "The provider's signature on the evidence is not valid: the evidence was altered after it was issued.",
      es: 'La firma del proveedor en la constancia no es válida: la constancia fue alterada después de emitirse.',
    },
    advice: {
      en: 'Do not rely on this evidence. Ask the provider for the original file.',
      es: 'No confíes en esta constancia. Solicita al proveedor el archivo original.',
    },
  },
  UNTRUSTED_CERTIFICATE: {
    message: {
      en: 'The evidence was signed by a provider this environment does not trust (its certificate does not lead to a trusted root).',
      es: 'La constancia fue firmada por un proveedor en el que este ambiente no confía (su certificado no lleva a una raíz de confianza).',
    },
    advice: {
      en: 'If the provider is authorized, import its root certificate for this environment in Settings; otherwise do not rely on it.',
      es: 'Si el proveedor está autorizado, importa su certificado raíz para este ambiente en Configuración; si no, no confíes en ella.',
    },
  },
  NOT_A_TSA_CERTIFICATE: {
    message: {
      en: 'The signing certificate is not authorized for time-stamping (it lacks the critical timeStamping usage).',
      es: 'El certificado firmante no está autorizado para sellos de tiempo (no tiene el uso crítico timeStamping).',
    },
    advice: {
      en: 'Ask the provider for evidence signed with its time-stamping certificate.',
      es: 'Solicita al proveedor una constancia firmada con su certificado de sellado de tiempo.',
    },
  },
  EXPIRED_CERTIFICATE: {
    message: {
      en: "A certificate in the provider's chain was not valid at the time of the stamp (expired or not yet valid).",
      es: 'Un certificado de la cadena del proveedor no era válido en el momento del sello (vencido o aún no vigente).',
    },
    advice: {
      en: 'Ask the provider to re-issue the evidence with a valid certificate.',
      es: 'Solicita al proveedor que vuelva a emitir la constancia con un certificado vigente.',
    },
  },
  SEALED_PAGES_DIFFER: {
    message: {
      en: 'The pages this PDF shows are not the pages of the sealed original it carries: the visible document was changed after sealing.',
      es: 'Las páginas que muestra este PDF no son las del original sellado que lleva dentro: el documento visible se modificó después del sellado.',
    },
    advice: {
      en: 'Do not rely on what this PDF shows. Open the attached documento-original.pdf, or ask for the sealed PDF again.',
      es: 'No confíes en lo que muestra este PDF. Abre el adjunto documento-original.pdf, o solicita de nuevo el PDF sellado.',
    },
  },
  CHANGED_AFTER_SEALING: {
    message: {
      en: 'This PDF was changed after it was sealed: something other than the evidence was added or replaced, so what it shows may not be the sealed document.',
      es: 'Este PDF se modificó después del sellado: se agregó o reemplazó algo distinto de la constancia, así que lo que muestra puede no ser el documento sellado.',
    },
    advice: {
      en: 'Do not rely on what this PDF shows. Ask the provider or the sender for the sealed PDF exactly as it was issued.',
      es: 'No confíes en lo que muestra este PDF. Solicita al proveedor o al remitente el PDF sellado tal como se emitió.',
    },
  },
  HASH_MISMATCH: {
    message: {
      en: 'The document does not match the evidence: its hash differs from the one the provider sealed.',
      es: 'El documento no corresponde a la constancia: su hash es distinto del que selló el proveedor.',
    },
    advice: {
      en: 'The document changed after sealing, or it is a different file. Load the exact file that was sealed.',
      es: 'El documento cambió después del sellado, o es otro archivo. Carga exactamente el archivo que se selló.',
    },
  },
};

function failure(code: Nom151FailureCode): Nom151Failure {
  return { code, ...TEXT[code] };
}
