import { inflateSync } from 'node:zlib';
import {
  PDFArray,
  PDFBool,
  PDFContext,
  PDFDict,
  PDFDocument,
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
import { equalBytes } from './asn1';
import { readPdf } from './pdf';

/**
 * What was appended to a sealed PDF after its sealed original, read the way PDF readers read it: through the
 * cross-reference section `startxref` names, not by scanning the body (pdf-lib's way, which a later definition or an
 * unreferenced copy can fool). See docs/nom151.md, "Changed after sealing".
 */

const TRAILING = /^[\r\n \t\f\0]*$/;

/**
 * The app's own layout is one full revision, read alike by readers and by pdf-lib: one `%%EOF`, nothing after it but
 * end-of-line whitespace, a trailer with no `/Prev`, and each object the cross-reference table lists is, at its
 * offset, the very object pdf-lib read under that number (pdf-lib keeps the last definition in the body; readers
 * follow the table: an extra definition, or a hidden earlier `%%EOF`, made them differ: red team 8). Never throws.
 */
export async function isSingleRevision(pdf: Uint8Array): Promise<boolean> {
  try {
    const text = latin1(pdf);
    const eof = text.lastIndexOf('%%EOF');
    if (eof === -1 || text.indexOf('%%EOF') !== eof || !TRAILING.test(text.slice(eof + 5))) return false;
    const tail = /startxref\s+(\d+)\s+$/.exec(text.slice(Math.max(0, eof - 64), eof));
    if (!tail) return false;
    const xrefAt = Number(tail[1]);
    const context = PDFContext.create();
    // The app writes a classic table: an xref stream is one more place for readers and pdf-lib to part.
    if (!text.startsWith('xref', xrefAt)) return false;
    const { entries, trailer, trailerAt } = xrefTable(text, xrefAt, context);
    if (trailer.get(PDFName.of('Prev')) !== undefined || trailer.get(PDFName.of('XRefStm')) !== undefined) return false;
    // No other trailer anywhere: a reader that falls back to scanning the file takes the first it finds with a
    // catalog (pdf.js), pdf-lib the last (red team 13).
    if (strayTrailer(text, 0, trailerAt, context)) return false;
    const doc = await readPdf(pdf);
    // The trailer readers use is the one pdf-lib used (it takes the last in the file: a second one named another
    // catalog for readers, red team 9).
    for (const key of ['Root', 'Info', 'Encrypt'] as const)
      if (!same(trailer.get(PDFName.of(key)), doc.context.trailerInfo[key] as PDFObject | undefined)) return false;
    const listed = new Set<string>();
    const spans: [number, number][] = [];
    for (const [num, entry] of entries) {
      if (entry.type === 0) continue;
      // The app writes no object streams and no generation but 0 (an unlisted `7 0 obj` beside a listed `7 1 obj`
      // was the sealed object to pdf-lib, the forged one to readers: red team 9).
      if (entry.type === 2 || entry.gen !== 0) return false;
      listed.add(PDFRef.of(num, 0).tag);
      const header = /^(\d+)\s+(\d+)\s+obj\b/.exec(text.slice(entry.offset, entry.offset + 32));
      if (!header || Number(header[1]) !== num || Number(header[2]) !== entry.gen) return false;
      const body = entry.offset + header[0].length;
      const parser = PDFObjectParser.forBytes(pdf.subarray(body), context);
      const parsed = parser.parseObject();
      if (!same(parsed, doc.context.lookup(PDFRef.of(num, entry.gen))) || !namesReadAlike(parsed)) return false;
      const end = /^\s*endobj\b/.exec(text.slice(body + parsedLength(parser), body + parsedLength(parser) + 64));
      if (!end) return false;
      spans.push([entry.offset, body + parsedLength(parser) + end[0].length]);
    }
    return (
      doc.context.enumerateIndirectObjects().every(([ref]) => listed.has(ref.tag)) &&
      onlyListedBytes(text, spans, xrefAt)
    );
  } catch {
    return false;
  }
}

const TRAILER = /trailer\s*<</g;

/**
 * A trailer other than the section's (at `own`) that a reader scanning the file would take: one naming a catalog. The
 * words "trailer <<" in a contract's text are no trailer (red team 14: a genuine file was refused for them).
 */
function strayTrailer(text: string, from: number, own: number, context: PDFContext): boolean {
  for (const match of text.slice(from).matchAll(TRAILER)) {
    if (match.index + from === own) continue;
    try {
      const dict = parse(text, match.index + from + 'trailer'.length, context);
      if (dict instanceof PDFDict && dict.has(PDFName.of('Root'))) return true;
    } catch {
      // Not a dictionary: no reader takes it for a trailer.
    }
  }
  return false;
}

/**
 * Whether pdf-lib and readers read each name of an object alike: pdf-lib decodes `#xx` in a name only in upper-case
 * hex, readers in either case, so `/#4bids` was a second `/Kids` to pdf.js and MuPDF and an unknown key to pdf-lib
 * (red team 14: a forged page shown, Verify valid). A name pdf-lib left with `#` and a lower-case hex pair is refused.
 */
function namesReadAlike(obj: PDFObject): boolean {
  const stack: PDFObject[] = [obj];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (next instanceof PDFName) {
      for (const [, hex] of next.decodeText().matchAll(/#([0-9A-Fa-f]{2})/g)) if (/[a-f]/.test(hex!)) return false;
    } else if (next instanceof PDFStream) stack.push(next.dict);
    else if (next instanceof PDFDict) for (const [key, value] of next.entries()) stack.push(key, value);
    else if (next instanceof PDFArray) stack.push(...next.asArray());
  }
  return true;
}

/** How far a parser has read into the bytes it was given. */
const parsedLength = (parser: PDFObjectParser) => (parser as unknown as { bytes: { offset(): number } }).bytes.offset();

/**
 * Every byte before the cross-reference table belongs to the header or to a listed object: bytes no table lists (a
 * bare trailer, a definition, an xref section) are what a reader that scans the file finds and pdf-lib may not
 * (red team 13). Between objects only whitespace; before the first, the `%PDF-` line and one comment line.
 */
function onlyListedBytes(text: string, spans: [number, number][], xrefAt: number): boolean {
  spans.sort((a, b) => a[0] - b[0]);
  let at = /^%PDF-\d\.\d[ \t]*(?:\r\n|\r|\n)(?:%[^\r\n]*(?:\r\n|\r|\n))?/.exec(text)?.[0].length;
  if (at === undefined) return false;
  for (const [start, end] of [...spans, [xrefAt, xrefAt] as [number, number]]) {
    if (start < at || !/^\s*$/.test(text.slice(at, start))) return false;
    at = end;
  }
  return true;
}

/**
 * Standard layout: after the original's bytes (the sealed file's first bytes), exactly one incremental update, ending
 * the file, that only defines new object numbers and the original's catalog again, equal but for `/Names` →
 * `/EmbeddedFiles` and `/AF`. Never throws: anything unreadable is `false`.
 */
export async function onlyEvidenceAdded(sealed: Uint8Array, original: Uint8Array): Promise<boolean> {
  try {
    if (!equalBytes(sealed.subarray(0, original.length), original)) return false;
    return checkUpdate(sealed, original.length, await readPdf(original));
  } catch {
    return false;
  }
}

interface Entry {
  type: 0 | 1 | 2;
  offset: number;
  gen: number;
}

function checkUpdate(sealed: Uint8Array, originalEnd: number, original: PDFDocument): boolean {
  const text = latin1(sealed);
  const update = text.slice(originalEnd);
  // One revision after the original, and nothing after its %%EOF.
  const eof = update.indexOf('%%EOF');
  if (eof === -1 || update.indexOf('%%EOF', eof + 5) !== -1 || !TRAILING.test(update.slice(eof + 5))) return false;
  const tail = /startxref\s+(\d+)\s+$/.exec(update.slice(0, eof));
  const originalXref = /startxref\s+(\d+)\s+%%EOF[\r\n \t\f\0]*$/.exec(
    text.slice(Math.max(0, originalEnd - 1024), originalEnd),
  );
  if (!tail || !originalXref) return false;
  const xrefAt = Number(tail[1]);
  if (xrefAt < originalEnd || xrefAt >= originalEnd + eof) return false;

  const context = PDFContext.create();
  const { entries, trailer, trailerAt } = text.startsWith('xref', xrefAt)
    ? xrefTable(text, xrefAt, context)
    : xrefStream(text, xrefAt, context);
  // The update holds no trailer but its section's (a reader scanning the file takes the first with a catalog).
  if (strayTrailer(text, originalEnd, trailerAt, context)) return false;

  // The update continues the original's revision, and keeps its catalog, encryption and info.
  if (trailer.get(PDFName.of('XRefStm')) !== undefined) return false;
  if (numberOf(trailer.get(PDFName.of('Prev'))) !== Number(originalXref[1])) return false;
  const root = original.context.trailerInfo.Root;
  if (!(root instanceof PDFRef) || !same(trailer.get(PDFName.of('Root')), root)) return false;
  for (const key of ['Encrypt', 'Info'] as const) {
    const now = trailer.get(PDFName.of(key));
    if (now !== undefined && !same(now, original.context.trailerInfo[key] as PDFObject | undefined)) return false;
  }

  const inUse = new Set(original.context.enumerateIndirectObjects().map(([ref]) => ref.objectNumber));
  // A number the original refers to but does not define (a dangling reference, null to readers) may not be defined
  // now: that would change what an original object shows.
  const referenced = referencedNumbers(original);
  for (const [num, entry] of entries) {
    if (entry.type === 0) {
      if (num !== 0 && inUse.has(num)) return false; // freeing an original object
      continue;
    }
    if (entry.type === 2) return false; // object streams in an evidence update: not what evidence writers do
    if (num !== root.objectNumber && (inUse.has(num) || referenced.has(num))) return false;
    if (num === root.objectNumber && entry.gen !== root.generationNumber) return false;
    // Each definition is where the xref says: otherwise readers rebuild the xref by scanning, last copy wins.
    if (entry.offset < originalEnd || entry.offset > xrefAt) return false;
    const header = /^(\d+)\s+(\d+)\s+obj\b/.exec(text.slice(entry.offset, entry.offset + 32));
    if (!header || Number(header[1]) !== num || Number(header[2]) !== entry.gen) return false;
  }

  const catalogEntry = entries.get(root.objectNumber);
  if (!catalogEntry || catalogEntry.type !== 1) return true; // catalog untouched
  const resolveNew = (obj: PDFObject | undefined): PDFObject | undefined => {
    if (!(obj instanceof PDFRef)) return obj;
    const entry = entries.get(obj.objectNumber);
    if (!entry) return original.context.lookup(obj);
    return entry.type === 1 && entry.gen === obj.generationNumber ? objectAt(text, entry.offset, context) : undefined;
  };
  const catalog = objectAt(text, catalogEntry.offset, context);
  if (!(catalog instanceof PDFDict)) return false;
  if (!sameDictExcept(catalog, original.catalog, ['Names', 'AF'])) return false;
  const names = resolveNew(catalog.get(PDFName.of('Names')));
  const originalNames = original.catalog.lookup(PDFName.of('Names'));
  if (names !== undefined && !(names instanceof PDFDict)) return false;
  if (originalNames !== undefined && !(originalNames instanceof PDFDict)) return false;
  return sameDictExcept(names ?? PDFDict.withContext(context), originalNames ?? PDFDict.withContext(context), [
    'EmbeddedFiles',
  ]);
}

/** Every object number the original's objects refer to. */
function referencedNumbers(doc: PDFDocument): Set<number> {
  const out = new Set<number>();
  const stack: Array<PDFObject | undefined> = doc.context.enumerateIndirectObjects().map(([, obj]) => obj);
  stack.push(doc.context.trailerInfo.Root, doc.context.trailerInfo.Info as PDFObject | undefined);
  while (stack.length > 0) {
    const obj = stack.pop();
    if (obj instanceof PDFRef) out.add(obj.objectNumber);
    else if (obj instanceof PDFStream) stack.push(obj.dict);
    else if (obj instanceof PDFDict) stack.push(...obj.values());
    else if (obj instanceof PDFArray) stack.push(...obj.asArray());
  }
  return out;
}

function xrefTable(text: string, at: number, context: PDFContext) {
  const entries = new Map<number, Entry>();
  const section = /\s*(\d+)\s+(\d+)[ \t]*[\r\n]+/y;
  const line = /(\d{10})\s(\d{5})\s([nf])[ \t]*[\r\n]+/y;
  let pos = at + 'xref'.length;
  for (;;) {
    section.lastIndex = pos;
    const head = section.exec(text);
    if (!head) break;
    pos = section.lastIndex;
    const start = Number(head[1]);
    for (let i = 0; i < Number(head[2]); i++) {
      line.lastIndex = pos;
      const row = line.exec(text);
      if (!row) throw new Error('bad xref row');
      // pdf.js reads a subsection `1 N` opening with a free row as `0 N` (a writers' old slip): every object one number
      // off, then the file scanned for a trailer of its own choosing (red team 13).
      if (start === 1 && i === 0 && row[3] === 'f') throw new Error('a subsection readers renumber');
      pos = line.lastIndex;
      if (entries.has(start + i)) throw new Error('object listed twice');
      entries.set(start + i, { type: row[3] === 'n' ? 1 : 0, offset: Number(row[1]), gen: Number(row[2]) });
    }
  }
  const keyword = /^\s*trailer/.exec(text.slice(pos, pos + 64));
  if (!keyword) throw new Error('no trailer');
  const trailer = parse(text, pos + keyword[0].length, context);
  if (!(trailer instanceof PDFDict)) throw new Error('bad trailer');
  return { entries, trailer, trailerAt: pos + keyword[0].length - 'trailer'.length };
}

function xrefStream(text: string, at: number, context: PDFContext) {
  const header = /^(\d+)\s+(\d+)\s+obj\b/.exec(text.slice(at, at + 32));
  if (!header) throw new Error('no xref at startxref');
  const stream = parse(text, at + header[0].length, context);
  if (!(stream instanceof PDFRawStream)) throw new Error('not an xref stream');
  const dict = stream.dict;
  if (dict.get(PDFName.of('Type')) !== PDFName.of('XRef')) throw new Error('not an xref stream');
  const widths = numbers(dict.get(PDFName.of('W')));
  const size = numberOf(dict.get(PDFName.of('Size')));
  const index = dict.get(PDFName.of('Index')) ? numbers(dict.get(PDFName.of('Index'))) : [0, size ?? 0];
  if (widths.length !== 3 || index.length % 2 !== 0) throw new Error('bad xref stream');
  const data = decodeXrefData(
    stream,
    widths.reduce((a, b) => a + b, 0),
  );
  const rowSize = widths.reduce((a, b) => a + b, 0);
  const field = (row: number, n: 0 | 1 | 2, fallback: number) => {
    if (widths[n] === 0) return fallback;
    let value = 0;
    let p = row * rowSize + widths.slice(0, n).reduce((a, b) => a + b, 0);
    for (let i = 0; i < widths[n]!; i++) value = value * 256 + data[p++]!;
    return value;
  };
  const entries = new Map<number, Entry>();
  let row = 0;
  for (let i = 0; i < index.length; i += 2) {
    for (let k = 0; k < index[i + 1]!; k++, row++) {
      if ((row + 1) * rowSize > data.length) throw new Error('xref stream too short');
      const type = field(row, 0, 1);
      if (type > 2) continue; // reserved types are null objects to readers
      const num = index[i]! + k;
      if (entries.has(num)) throw new Error('object listed twice');
      entries.set(num, { type: type as 0 | 1 | 2, offset: field(row, 1, 0), gen: field(row, 2, 0) });
    }
  }
  return { entries, trailer: dict, trailerAt: -1 };
}

const MAX_XREF_BYTES = 4 * 1024 * 1024;

/** FlateDecode (optionally with PNG predictors), or no filter: what writers use for xref streams. */
function decodeXrefData(stream: PDFRawStream, columns: number): Uint8Array {
  const filter = stream.dict.get(PDFName.of('Filter'));
  const filters = filter instanceof PDFArray ? filter.asArray() : filter ? [filter] : [];
  if (filters.length === 0) return stream.contents;
  if (filters.length !== 1 || filters[0] !== PDFName.of('FlateDecode')) throw new Error('unsupported xref filter');
  const raw = new Uint8Array(inflateSync(stream.contents, { maxOutputLength: MAX_XREF_BYTES }));
  const parms = stream.dict.get(PDFName.of('DecodeParms'));
  const predictor = parms instanceof PDFDict ? (numberOf(parms.get(PDFName.of('Predictor'))) ?? 1) : 1;
  if (predictor < 10) {
    if (predictor !== 1) throw new Error('unsupported predictor');
    return raw;
  }
  const cols = (parms instanceof PDFDict ? numberOf(parms.get(PDFName.of('Columns'))) : undefined) ?? columns;
  const out = new Uint8Array(Math.floor(raw.length / (cols + 1)) * cols);
  for (let r = 0; (r + 1) * (cols + 1) <= raw.length; r++) {
    const kind = raw[r * (cols + 1)]!;
    for (let c = 0; c < cols; c++) {
      const x = raw[r * (cols + 1) + 1 + c]!;
      const left = c > 0 ? out[r * cols + c - 1]! : 0;
      const up = r > 0 ? out[(r - 1) * cols + c]! : 0;
      const upLeft = r > 0 && c > 0 ? out[(r - 1) * cols + c - 1]! : 0;
      let value: number;
      if (kind === 0) value = x;
      else if (kind === 1) value = x + left;
      else if (kind === 2) value = x + up;
      else if (kind === 3) value = x + ((left + up) >> 1);
      else if (kind === 4) value = x + paeth(left, up, upLeft);
      else throw new Error('bad PNG row filter');
      out[r * cols + c] = value & 0xff;
    }
  }
  return out;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** The object whose `N G obj` header is at `offset`. */
function objectAt(text: string, offset: number, context: PDFContext): PDFObject {
  const header = /^(\d+)\s+(\d+)\s+obj\b/.exec(text.slice(offset, offset + 32));
  if (!header) throw new Error('no object there');
  return parse(text, offset + header[0].length, context);
}

function parse(text: string, at: number, context: PDFContext): PDFObject {
  return PDFObjectParser.forBytes(new Uint8Array(Buffer.from(text.slice(at), 'latin1')), context).parseObject();
}

function sameDictExcept(a: PDFDict, b: PDFDict, except: string[]): boolean {
  const keys = (d: PDFDict) =>
    d
      .keys()
      .map((k) => k.decodeText())
      .filter((k) => !except.includes(k))
      .sort();
  const ka = keys(a);
  const kb = keys(b);
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && same(a.get(PDFName.of(k)), b.get(PDFName.of(k))));
}

/** Structural equality of direct objects; references are equal when they name the same object. */
function same(a: PDFObject | undefined, b: PDFObject | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a instanceof PDFRef) return b instanceof PDFRef && a.tag === b.tag;
  if (a instanceof PDFRawStream)
    return (
      b instanceof PDFRawStream &&
      sameDictExcept(a.dict, b.dict, []) &&
      Buffer.from(a.contents).equals(Buffer.from(b.contents))
    );
  if (a instanceof PDFDict) return b instanceof PDFDict && !(b instanceof PDFRawStream) && sameDictExcept(a, b, []);
  if (a instanceof PDFArray)
    return b instanceof PDFArray && a.size() === b.size() && a.asArray().every((v, i) => same(v, b.get(i)));
  if (a instanceof PDFName) return a === b;
  if (a instanceof PDFNumber) return b instanceof PDFNumber && a.asNumber() === b.asNumber();
  if (a instanceof PDFString || a instanceof PDFHexString)
    return (
      (b instanceof PDFString || b instanceof PDFHexString) && Buffer.from(a.asBytes()).equals(Buffer.from(b.asBytes()))
    );
  if (a instanceof PDFBool) return b instanceof PDFBool && a.asBoolean() === b.asBoolean();
  if (a === PDFNull) return b === PDFNull;
  return false;
}

const numberOf = (obj: PDFObject | undefined) => (obj instanceof PDFNumber ? obj.asNumber() : undefined);

function numbers(obj: PDFObject | undefined): number[] {
  if (!(obj instanceof PDFArray)) throw new Error('expected an array of numbers');
  return obj.asArray().map((v) => {
    if (!(v instanceof PDFNumber) || !Number.isInteger(v.asNumber()) || v.asNumber() < 0) throw new Error('bad number');
    return v.asNumber();
  });
}

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
