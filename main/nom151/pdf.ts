import {
  AFRelationship,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFRawStream,
  PDFString,
  decodePDFRawStream,
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

export async function attachEvidence(pdf: Uint8Array, tokenDer: Uint8Array, name: string = EVIDENCE_ATTACHMENT): Promise<Uint8Array> {
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
export async function extractEvidence(pdf: Uint8Array): Promise<{ tokenDer: Uint8Array; originalPdf?: Uint8Array } | null> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false, ignoreEncryption: true });
  const files = listEmbeddedFiles(doc);
  const evidence = files.find((f) => /\.(tsr|tst|asn1|der)$/i.test(f.name));
  if (!evidence) return null;
  const original = files.find((f) => f.name === ORIGINAL_ATTACHMENT);
  return { tokenDer: unwrapTimeStampResp(evidence.data), ...(original ? { originalPdf: original.data } : {}) };
}

/** A `.tsr` may hold a TimeStampResp (status + token) or the bare token (ContentInfo); always returns the token. */
export function unwrapTimeStampResp(der: Uint8Array): Uint8Array {
  try {
    const resp = pkijs.TimeStampResp.fromBER(ownBuffer(der));
    if (resp.timeStampToken) return new Uint8Array(resp.timeStampToken.toSchema().toBER());
  } catch {
    // Not a TimeStampResp: treat it as the token itself and let the verifier judge it.
  }
  return der;
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
