import { createHash } from 'node:crypto';
import { deflateSync, inflateSync } from 'node:zlib';
import {
  AFRelationship,
  decodePDFRawStream,
  PDFArray,
  PDFBool,
  PDFContext,
  PDFDict,
  PDFDocument,
  type LoadOptions,
  PDFHexString,
  PDFName,
  PDFNull,
  PDFNumber,
  PDFObjectParser,
  PDFRawStream,
  PDFRef,
  PDFStream,
  PDFString,
  type PDFObject,
} from 'pdf-lib';
import * as pkijs from 'pkijs';
import { ownBuffer } from './asn1';
import { readersShowAlike } from './reader-view';
import { tokenToTimeStampResp } from './tsa';

/**
 * Sealed PDF layout (see docs/nom151.md): the imprint of the token is the SHA-256 of the ORIGINAL contract bytes.
 * Attaching anything rewrites the PDF, so the sealed PDF carries both the evidence and the original bytes as embedded
 * files; a verifier recovers the original, hashes it, and checks the token. The visible pages are the original's.
 */
/** What one of pdf-lib's decoders may produce, and all of them while one file loads. */
const MAX_DECODED_BYTES = 32 * 1024 * 1024;
const MAX_DECODED_PER_LOAD_BYTES = 128 * 1024 * 1024;
/** Objects one load may build: a few KB of `[[][][]…]` became gigabytes of them (red team 9). */
const MAX_PARSED_PER_LOAD = 1_000_000;

/**
 * pdf-lib decodes object and cross-reference streams as it loads a file, in JavaScript and without a limit, so a few
 * MB of PDF could take gigabytes of main's memory (red team 7), however the stream hides what it is (an indirect
 * `/Type` or `/Filter`, a lying `/Length`: red team 8). Every decoder (Flate, LZW, ASCII85, run length) grows its
 * buffer through `DecodeStream.ensureBuffer`: there, past the caps, it throws, and the file is unreadable.
 */
const decodeBudget = { loading: 0, spent: 0, parsed: 0, refused: false };
{
  // The class of the pdf-lib that this module loaded (its CommonJS or its ES build, whichever the runtime chose): found
  // through a decoder it hands out, FlateStream → DecodeStream.
  const dict = PDFContext.create().obj({ Filter: 'FlateDecode' });
  const decoder = decodePDFRawStream(PDFRawStream.of(dict, new Uint8Array(deflateSync(new Uint8Array()))));
  const DecodeStream = {
    prototype: Object.getPrototypeOf(Object.getPrototypeOf(decoder)) as {
      ensureBuffer(requested: number): Uint8Array;
      buffer: Uint8Array;
    },
  };
  const grow = DecodeStream.prototype.ensureBuffer;
  const refuse = (why: string) => {
    if (decodeBudget.loading > 0) decodeBudget.refused = true;
    return new Error(why);
  };
  DecodeStream.prototype.ensureBuffer = function ensureBuffer(requested: number) {
    const before = this.buffer?.byteLength ?? 0;
    if (requested > MAX_DECODED_BYTES) throw refuse('a stream decodes past the limit');
    if (decodeBudget.loading > 0 && decodeBudget.spent + requested - before > MAX_DECODED_PER_LOAD_BYTES)
      throw refuse('the file decodes past the limit');
    const buffer = grow.call(this, requested);
    if (decodeBudget.loading > 0) decodeBudget.spent += Math.max(0, buffer.byteLength - before);
    return buffer;
  };
  // Every object the parser builds goes through parseObject (an array's items too): numbers and strings as well as
  // arrays and dictionaries (counting those two only left 120 KB of numbers to hold main 51 s: red team 10).
  const parser = PDFObjectParser.prototype as unknown as { parseObject: () => PDFObject };
  const parse = parser.parseObject;
  parser.parseObject = function counted(this: unknown) {
    if (decodeBudget.loading > 0 && ++decodeBudget.parsed > MAX_PARSED_PER_LOAD)
      throw refuse('the file holds more objects than a document does');
    return parse.call(this);
  };
}

/** One load at a time, so each has the budget above to itself (pdf-lib yields as it parses, and loads interleaved). */
let loads: Promise<unknown> = Promise.resolve();

/**
 * `PDFDocument.load`, for a file from outside: what it decodes while loading is capped (above). pdf-lib sets aside an
 * object it cannot read and goes on, so a file that hit a cap is refused here, after the load.
 */
export function loadPdf(pdf: Uint8Array, options: LoadOptions): Promise<PDFDocument> {
  const load = loads.then(async () => {
    decodeBudget.loading = 1;
    [decodeBudget.spent, decodeBudget.parsed, decodeBudget.refused] = [0, 0, false];
    try {
      const doc = await PDFDocument.load(pdf, options);
      if (decodeBudget.refused) throw new Error('the file decodes past the limit');
      return doc;
    } finally {
      decodeBudget.loading = 0;
    }
  });
  loads = load.catch(() => undefined);
  return load;
}

/**
 * A file from outside loaded for reading only, once per verification: extracting the evidence, comparing the pages and
 * checking the revision all read the same bytes, and each load of a large contract costs seconds (it was three).
 */
const readOnlyLoads = new WeakMap<Uint8Array, Promise<PDFDocument>>();
export function readPdf(pdf: Uint8Array): Promise<PDFDocument> {
  let load = readOnlyLoads.get(pdf);
  if (!load) {
    load = loadPdf(pdf, { updateMetadata: false, ignoreEncryption: true });
    readOnlyLoads.set(pdf, load);
  }
  return load;
}

export const EVIDENCE_ATTACHMENT = 'constancia-nom151.tsr';
export const ORIGINAL_ATTACHMENT = 'documento-original.pdf';

export async function attachEvidence(
  pdf: Uint8Array,
  tokenDer: Uint8Array,
  name: string = EVIDENCE_ATTACHMENT,
): Promise<Uint8Array> {
  const doc = await loadPdf(pdf, { updateMetadata: false });
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
  const doc = await readPdf(pdf);
  const files = listEmbeddedFiles(doc);
  // Only the two files we use are decoded: any other attachment may be a decompression bomb.
  const evidence = files.find((f) => EVIDENCE_NAME.test(f.name));
  if (!evidence) return null;
  const original = files.find((f) => f.name === ORIGINAL_ATTACHMENT);
  return {
    tokenDer: unwrapTimeStampResp(decodeEmbedded(evidence.stream)),
    ...(original ? { originalPdf: decodeEmbedded(original.stream) } : {}),
  };
}

const EVIDENCE_NAME = /\.(tsr|tst|asn1|der)$/i;

/** Decoded embedded files above this size are refused (the verify input limit; a `.tsr` is a few KB). */
const MAX_EMBEDDED_FILE_BYTES = 20 * 1024 * 1024;

/** Raw or FlateDecode only (what sealing writers use), inflated with a hard cap so a bomb fails fast. */
function decodeEmbedded(stream: PDFRawStream): Uint8Array {
  const filter = stream.dict.lookup(PDFName.of('Filter'));
  const filters = filter instanceof PDFArray ? filter.asArray() : filter ? [filter] : [];
  if (filters.length === 0) return stream.contents;
  const parms = stream.dict.lookup(PDFName.of('DecodeParms'));
  const predictor = parms instanceof PDFDict ? parms.lookup(PDFName.of('Predictor')) : undefined;
  const plain = parms === undefined || parms === PDFNull || (parms instanceof PDFDict && !predictor);
  if (filters.length !== 1 || filters[0] !== PDFName.of('FlateDecode') || !plain)
    throw new Error('unsupported embedded file encoding');
  // Throws (RangeError) past the cap: the PDF is then reported as unreadable.
  return new Uint8Array(inflateSync(stream.contents, { maxOutputLength: MAX_EMBEDDED_FILE_BYTES }));
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
  stream: PDFRawStream;
}

/** More name-tree entries than any sealed PDF carries: walking stops there. */
const MAX_NAME_TREE_ENTRIES = 1000;

function listEmbeddedFiles(doc: PDFDocument): EmbeddedFile[] {
  const names = doc.catalog.lookupMaybe(PDFName.of('Names'), PDFDict);
  const tree = names?.lookupMaybe(PDFName.of('EmbeddedFiles'), PDFDict);
  const out: EmbeddedFile[] = [];
  if (tree) walkNameTree(tree, out, 0, { left: MAX_NAME_TREE_ENTRIES });
  return out;
}

function walkNameTree(node: PDFDict, out: EmbeddedFile[], depth: number, budget: { left: number }): void {
  if (depth > 32) return; // a cyclic or absurdly deep tree is not something we follow
  const kids = node.lookupMaybe(PDFName.of('Kids'), PDFArray);
  if (kids) {
    for (let i = 0; i < kids.size() && budget.left-- > 0; i++) {
      const kid = kids.lookupMaybe(i, PDFDict);
      if (kid) walkNameTree(kid, out, depth + 1, budget);
    }
  }
  const pairs = node.lookupMaybe(PDFName.of('Names'), PDFArray);
  if (!pairs) return;
  for (let i = 0; i + 1 < pairs.size() && budget.left-- > 0; i += 2) {
    const key = pairs.lookup(i);
    const spec = pairs.lookupMaybe(i + 1, PDFDict);
    const stream = spec?.lookupMaybe(PDFName.of('EF'), PDFDict)?.lookup(PDFName.of('F'));
    if (!(stream instanceof PDFRawStream)) continue;
    const name = key instanceof PDFString || key instanceof PDFHexString ? key.decodeText() : '';
    out.push({ name, stream });
  }
}

/**
 * Whether the pages a reader sees in the sealed PDF are the pages of the original it carries. The token only
 * proves the embedded original; without this a forger could keep the original attached and change what is shown.
 * Pages are compared by their whole object graph (content streams, resources, fonts, images, boxes), ignoring
 * object numbers, which a rewrite may change.
 */
export async function visiblePagesMatch(sealedPdf: Uint8Array, originalPdf: Uint8Array): Promise<boolean> {
  const [sealed, original] = await Promise.all([readPdf(sealedPdf), readPdf(originalPdf)]);
  const a = pageFingerprints(sealed);
  const b = pageFingerprints(original);
  if (!(a.length === b.length && a.every((fp, i) => fp === b[i]) && catalogShown(sealed) === catalogShown(original)))
    return false;
  // And as a reader draws them: pdf-lib's reading alone has been fooled by what readers read otherwise.
  return readersShowAlike(sealedPdf, originalPdf);
}

/**
 * Left out of the catalog's comparison: what sealing adds (`/AF`, and `/Names` → `/EmbeddedFiles` below), the pages
 * (compared apart), and navigation and structure that change no page (bookmarks chain one after another, deeper than
 * the comparison follows).
 */
const SEALING_ADDS = new Set(['/AF', '/Pages', '/Outlines', '/StructTreeRoot']);

/**
 * The catalog's part in what is shown: which optional content is on, an XFA form, form settings, actions, scripts. A
 * whole-file rewrite (one revision, so no "changed after sealing") could change these and keep every page.
 */
function catalogShown(doc: PDFDocument): string {
  const walk: Walk = { doc, memo: new Map(), pages: new Map(doc.getPages().map((p, i) => [p.ref.tag, i])) };
  const entries = doc.catalog
    .entries()
    .filter(([key]) => !SEALING_ADDS.has(key.asString()))
    .map(([key, value]): [string, string] => {
      if (key.asString() !== '/Names') return [key.asString(), fingerprint(value, walk, new Set(), 0)];
      const names = doc.context.lookup(value);
      if (!(names instanceof PDFDict)) return ['/Names', fingerprint(value, walk, new Set(), 0)];
      const kept = names.entries().filter(([k]) => k.asString() !== '/EmbeddedFiles');
      return [
        '/Names',
        kept.length === 0
          ? 'none'
          : fingerprint(PDFDict.fromMapWithContext(new Map(kept), doc.context), walk, new Set(), 0),
      ];
    })
    .filter(([key, print]) => !(key === '/Names' && print === 'none'))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return digest(entries.map(([key, print]) => `${key}=${print}`).join(','));
}

const INHERITED = ['Resources', 'MediaBox', 'CropBox', 'Rotate'].map((n) => PDFName.of(n));

/** Indirect references followed from a page before the comparison gives up (and fails: see `fingerprint`). */
const MAX_REF_DEPTH = 200;

interface Walk {
  doc: PDFDocument;
  memo: Map<string, string>;
  /** Pages by reference: a page reached from another (a link, a widget's /P) counts by its index, not its graph. */
  pages: Map<string, number>;
}

function pageFingerprints(doc: PDFDocument): string[] {
  const pages = doc.getPages();
  const walk: Walk = { doc, memo: new Map(), pages: new Map(pages.map((p, i) => [p.ref.tag, i])) };
  return pages.map((page) => {
    const leaf = page.node;
    const own = fingerprint(leaf, walk, new Set(), 0, true);
    const inherited = INHERITED.map((name) => fingerprint(leaf.getInheritableAttribute(name), walk, new Set(), 0));
    return digest(`page(${own};${inherited.join(';')})`);
  });
}

const digest = (s: string | Uint8Array) => createHash('sha256').update(s).digest('hex');

/**
 * A canonical description of an object's graph. Throws past MAX_REF_DEPTH: what lies deeper could differ unseen,
 * so the pages are then reported as different.
 */
function fingerprint(obj: PDFObject | undefined, walk: Walk, path: Set<string>, depth: number, leaf = false): string {
  if (obj === undefined) return 'none';
  if (obj instanceof PDFRef) {
    const tag = obj.tag;
    const page = walk.pages.get(tag);
    if (page !== undefined) return `page(${page})`;
    const known = walk.memo.get(tag);
    if (known) return known;
    if (path.has(tag)) return 'cycle';
    if (depth >= MAX_REF_DEPTH) throw new Error('object graph too deep to compare');
    path.add(tag);
    const value = digest(fingerprint(walk.doc.context.lookup(obj), walk, path, depth + 1));
    path.delete(tag);
    walk.memo.set(tag, value);
    return value;
  }
  if (obj instanceof PDFStream) {
    const contents = obj instanceof PDFRawStream ? obj.contents : obj.getContents();
    return `stream(${fingerprint(obj.dict, walk, path, depth)};${digest(contents)})`;
  }
  if (obj instanceof PDFDict) {
    const entries = obj
      .entries()
      // Only the page's own /Parent is the page tree; elsewhere (a widget's field) it is part of what is shown.
      .filter(([key]) => !(leaf && key.asString() === '/Parent'))
      .sort(([a], [b]) => (a.asString() < b.asString() ? -1 : a.asString() > b.asString() ? 1 : 0))
      .map(([key, value]) => `${key.asString()}=${fingerprint(value, walk, path, depth)}`);
    return `dict(${entries.join(',')})`;
  }
  if (obj instanceof PDFArray)
    return `array(${obj
      .asArray()
      .map((v) => fingerprint(v, walk, path, depth))
      .join(',')})`;
  if (obj instanceof PDFName) return `name(${obj.asString()})`;
  if (obj instanceof PDFNumber) return `num(${obj.asNumber()})`;
  if (obj instanceof PDFString || obj instanceof PDFHexString) return `str(${digest(obj.asBytes())})`;
  if (obj instanceof PDFBool) return `bool(${obj.asBoolean()})`;
  return obj.toString();
}
