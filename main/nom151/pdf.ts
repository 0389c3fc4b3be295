import { createHash } from 'node:crypto';
import {
  AFRelationship,
  PDFArray,
  PDFBool,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFRawStream,
  PDFRef,
  PDFStream,
  PDFString,
  decodePDFRawStream,
  type PDFObject,
} from 'pdf-lib';
import * as pkijs from 'pkijs';
import { ownBuffer } from './asn1';
import { tokenToTimeStampResp } from './tsa';

/**
 * Sealed PDF layout (see docs/nom151.md): the imprint of the token is the SHA-256 of the ORIGINAL contract bytes.
 * Attaching anything rewrites the PDF, so the sealed PDF carries both the evidence and the original bytes as embedded
 * files; a verifier recovers the original, hashes it, and checks the token. The visible pages are the original's.
 */
export const EVIDENCE_ATTACHMENT = 'constancia-nom151.tsr';
export const ORIGINAL_ATTACHMENT = 'documento-original.pdf';

export async function attachEvidence(
  pdf: Uint8Array,
  tokenDer: Uint8Array,
  name: string = EVIDENCE_ATTACHMENT,
): Promise<Uint8Array> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const at = new Date();
  // A full TimeStampResp, so the extracted file is what `openssl ts -verify -in` expects.
  await doc.attach(tokenToTimeStampResp(tokenDer), name, {
    mimeType: 'application/timestamp-reply',
    description: 'Constancia de conservación NOM-151 (RFC 3161) / NOM-151 preservation evidence',
    creationDate: at,
    modificationDate: at,
    afRelationship: AFRelationship.Supplement,
  });
  await doc.attach(pdf, ORIGINAL_ATTACHMENT, {
    mimeType: 'application/pdf',
    description: 'Documento original sellado, bytes exactos / Sealed original document, exact bytes',
    creationDate: at,
    modificationDate: at,
    afRelationship: AFRelationship.Source,
  });
  return doc.save({ useObjectStreams: false });
}

/** `null` when the PDF carries no NOM-151 evidence. Throws when the bytes are not a readable PDF. */
export async function extractEvidence(
  pdf: Uint8Array,
): Promise<{ tokenDer: Uint8Array; originalPdf?: Uint8Array } | null> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false, ignoreEncryption: true });
  const files = listEmbeddedFiles(doc);
  const evidence = files.find((f) => /\.(tsr|tst|asn1|der)$/i.test(f.name));
  if (!evidence) return null;
  const original = files.find((f) => f.name === ORIGINAL_ATTACHMENT);
  return { tokenDer: unwrapTimeStampResp(evidence.data), ...(original ? { originalPdf: original.data } : {}) };
}

/** A `.tsr` may hold a TimeStampResp (status + token) or the bare token (ContentInfo); always returns the token. */
export function unwrapTimeStampResp(der: Uint8Array): Uint8Array {
  // A ContentInfo opens with its content type (an OID), a TimeStampResp with its status (a SEQUENCE): a bare token is
  // returned as it is, since failing to parse it as a TimeStampResp costs about as much as verifying it.
  if (firstInnerTag(der) === OID_TAG) return der;
  try {
    const resp = pkijs.TimeStampResp.fromBER(ownBuffer(der));
    if (resp.timeStampToken) return new Uint8Array(resp.timeStampToken.toSchema().toBER());
  } catch {
    // Not a TimeStampResp: treat it as the token itself and let the verifier judge it.
  }
  return der;
}

const OID_TAG = 0x06;

/** The tag of the first element inside an outer DER/BER SEQUENCE, from its header alone. */
function firstInnerTag(der: Uint8Array): number | undefined {
  if (der[0] !== 0x30 || der.length < 2) return undefined;
  const length = der[1]!;
  // Short form (and BER's indefinite 0x80): one length byte; long form: 0x8N and N bytes of length.
  return der[length <= 0x80 ? 2 : 2 + (length & 0x7f)];
}

interface EmbeddedFile {
  name: string;
  data: Uint8Array;
}

function listEmbeddedFiles(doc: PDFDocument): EmbeddedFile[] {
  const names = doc.catalog.lookupMaybe(PDFName.of('Names'), PDFDict);
  const tree = names?.lookupMaybe(PDFName.of('EmbeddedFiles'), PDFDict);
  const out: EmbeddedFile[] = [];
  if (tree) walkNameTree(tree, out, 0);
  return out;
}

function walkNameTree(node: PDFDict, out: EmbeddedFile[], depth: number): void {
  if (depth > 32) return; // a cyclic or absurdly deep tree is not something we follow
  const kids = node.lookupMaybe(PDFName.of('Kids'), PDFArray);
  if (kids) {
    for (let i = 0; i < kids.size(); i++) {
      const kid = kids.lookupMaybe(i, PDFDict);
      if (kid) walkNameTree(kid, out, depth + 1);
    }
  }
  const pairs = node.lookupMaybe(PDFName.of('Names'), PDFArray);
  if (!pairs) return;
  for (let i = 0; i + 1 < pairs.size(); i += 2) {
    const key = pairs.lookup(i);
    const spec = pairs.lookupMaybe(i + 1, PDFDict);
    const stream = spec?.lookupMaybe(PDFName.of('EF'), PDFDict)?.lookup(PDFName.of('F'));
    if (!(stream instanceof PDFRawStream)) continue;
    const name = key instanceof PDFString || key instanceof PDFHexString ? key.decodeText() : '';
    out.push({ name, data: decodePDFRawStream(stream).decode() });
  }
}

/**
 * Whether the pages a reader sees in the sealed PDF are the pages of the original it carries. The token only
 * proves the embedded original; without this a forger could keep the original attached and change what is shown.
 * Pages are compared by their whole object graph (content streams, resources, fonts, images, boxes), ignoring
 * object numbers, which a rewrite may change.
 */
export async function visiblePagesMatch(sealedPdf: Uint8Array, originalPdf: Uint8Array): Promise<boolean> {
  const [sealed, original] = await Promise.all([
    PDFDocument.load(sealedPdf, { updateMetadata: false, ignoreEncryption: true }),
    PDFDocument.load(originalPdf, { updateMetadata: false, ignoreEncryption: true }),
  ]);
  const a = pageFingerprints(sealed);
  const b = pageFingerprints(original);
  return a.length === b.length && a.every((fp, i) => fp === b[i]);
}

const INHERITED = ['Resources', 'MediaBox', 'CropBox', 'Rotate'].map((n) => PDFName.of(n));

function pageFingerprints(doc: PDFDocument): string[] {
  const memo = new Map<string, string>();
  return doc.getPages().map((page) => {
    const leaf = page.node;
    const own = fingerprint(leaf, doc, memo, new Set(), 0);
    const inherited = INHERITED.map((name) => fingerprint(leaf.getInheritableAttribute(name), doc, memo, new Set(), 0));
    return digest(`page(${own};${inherited.join(';')})`);
  });
}

const digest = (s: string | Uint8Array) => createHash('sha256').update(s).digest('hex');

function fingerprint(
  obj: PDFObject | undefined,
  doc: PDFDocument,
  memo: Map<string, string>,
  path: Set<string>,
  depth: number,
): string {
  if (obj === undefined) return 'none';
  if (depth > 64) return 'deep';
  if (obj instanceof PDFRef) {
    const tag = obj.tag;
    const known = memo.get(tag);
    if (known) return known;
    if (path.has(tag)) return 'cycle';
    path.add(tag);
    const value = digest(fingerprint(doc.context.lookup(obj), doc, memo, path, depth + 1));
    path.delete(tag);
    memo.set(tag, value);
    return value;
  }
  if (obj instanceof PDFStream) {
    const contents = obj instanceof PDFRawStream ? obj.contents : obj.getContents();
    return `stream(${fingerprint(obj.dict, doc, memo, path, depth + 1)};${digest(contents)})`;
  }
  if (obj instanceof PDFDict) {
    const entries = obj
      .entries()
      .filter(([key]) => key.asString() !== '/Parent') // the page tree above a page is not part of what it shows
      .map(([key, value]) => `${key.asString()}=${fingerprint(value, doc, memo, path, depth + 1)}`)
      .sort();
    return `dict(${entries.join(',')})`;
  }
  if (obj instanceof PDFArray)
    return `array(${obj
      .asArray()
      .map((v) => fingerprint(v, doc, memo, path, depth + 1))
      .join(',')})`;
  if (obj instanceof PDFName) return `name(${obj.asString()})`;
  if (obj instanceof PDFNumber) return `num(${obj.asNumber()})`;
  if (obj instanceof PDFString || obj instanceof PDFHexString) return `str(${digest(obj.asBytes())})`;
  if (obj instanceof PDFBool) return `bool(${obj.asBoolean()})`;
  return obj.toString();
}
