/**
 * A ZIP archive with every file stored as is (method 0, no compression), written and read here in ~100 lines rather
 * than with a library: an evidence file is written once and read back by the app and by stock tools (`unzip`,
 * `python3 -m zipfile -e`, `bsdtar -xf`, `7z x`, Windows Explorer), and stored entries keep each part's bytes
 * visible in the archive. No ZIP64 (an evidence file is far below 4 GB and 65,535 parts), no encryption, UTF-8 names
 * (flag bit 11), a fixed time (the parts carry their own times; the archive's bytes depend on its parts alone).
 */

export interface ZipPart {
  path: string;
  data: Uint8Array;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(data: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < data.length; i++) c = CRC_TABLE[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** 1 Jan 2000 00:00 in MS-DOS time: the entries' times say nothing (see above). */
const DOS_DATE = ((2000 - 1980) << 9) | (1 << 5) | 1;
const UTF8_NAMES = 1 << 11;

/**
 * The first path given twice, if any: two parts under one name extract as one file, so the first part's checksum
 * fails (`sha256sum -c`, and `readZip` refuses the archive). Checked before a manifest is stamped, and by `writeZip`.
 */
export function repeatedPath(paths: string[]): string | undefined {
  const seen = new Set<string>();
  for (const path of paths) {
    if (seen.has(path)) return path;
    seen.add(path);
  }
  return undefined;
}

/**
 * Every fixed field of a local header or a central entry, at its offset, with the value `writeZip` writes there and
 * `readZip` takes (the values have not changed since the first file). Any other value is a file something else wrote or edited, and ZIP
 * tools read some of them otherwise than the app: an encryption or data-descriptor flag, a symlink's mode, an extra
 * field with another name (CRC and sizes are compared with the directory's; a CRC that does not match the bytes is
 * that part's failure, `crcOk`).
 */
type Field = { name: string; offset: number; bytes: 2 | 4; value: number };
const LOCAL_FIELDS: Field[] = [
  { name: 'version needed', offset: 4, bytes: 2, value: 20 },
  { name: 'flags', offset: 6, bytes: 2, value: UTF8_NAMES },
  { name: 'method', offset: 8, bytes: 2, value: 0 },
  { name: 'time', offset: 10, bytes: 2, value: 0 },
  { name: 'date', offset: 12, bytes: 2, value: DOS_DATE },
  { name: 'extra field length', offset: 28, bytes: 2, value: 0 },
];
const CENTRAL_FIELDS: Field[] = [
  { name: 'version made by', offset: 4, bytes: 2, value: 0x0314 },
  { name: 'version needed', offset: 6, bytes: 2, value: 20 },
  { name: 'flags', offset: 8, bytes: 2, value: UTF8_NAMES },
  { name: 'method', offset: 10, bytes: 2, value: 0 },
  { name: 'time', offset: 12, bytes: 2, value: 0 },
  { name: 'date', offset: 14, bytes: 2, value: DOS_DATE },
  { name: 'extra field length', offset: 30, bytes: 2, value: 0 },
  { name: 'comment length', offset: 32, bytes: 2, value: 0 },
  { name: 'disk number', offset: 34, bytes: 2, value: 0 },
  { name: 'internal attributes', offset: 36, bytes: 2, value: 0 },
  { name: 'external attributes', offset: 38, bytes: 4, value: (0o100644 << 16) >>> 0 },
];

export function writeZip(parts: ZipPart[]): Uint8Array {
  const twice = repeatedPath(parts.map((p) => p.path));
  if (twice !== undefined) throw new ZipError({ en: `${twice} appears twice`, es: `${twice} aparece dos veces` });
  const encoder = new TextEncoder();
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = encoder.encode(part.path);
    const crc = crc32(part.data);
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    writeFields(local, LOCAL_FIELDS);
    local.setUint32(14, crc, true);
    local.setUint32(18, part.data.length, true);
    local.setUint32(22, part.data.length, true);
    local.setUint16(26, name.length, true);
    const central = new DataView(new ArrayBuffer(46));
    central.setUint32(0, 0x02014b50, true);
    writeFields(central, CENTRAL_FIELDS);
    central.setUint32(16, crc, true);
    central.setUint32(20, part.data.length, true);
    central.setUint32(24, part.data.length, true);
    central.setUint16(28, name.length, true);
    central.setUint32(42, offset, true);
    locals.push(new Uint8Array(local.buffer), name, part.data);
    centrals.push(new Uint8Array(central.buffer), name);
    offset += 30 + name.length + part.data.length;
  }
  const centralSize = centrals.reduce((n, b) => n + b.length, 0);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, parts.length, true);
  end.setUint16(10, parts.length, true);
  end.setUint32(12, centralSize, true);
  end.setUint32(16, offset, true);
  return concat([...locals, ...centrals, new Uint8Array(end.buffer)]);
}

export interface ReadPart extends ZipPart {
  /** The CRC the archive states matches the bytes read (a damaged or hand-edited archive says otherwise). */
  crcOk: boolean;
}

/**
 * The parts of a stored ZIP as `writeZip` writes it, from its central directory; throws `ZipError` on anything else
 * (any header field of another value, a name an opener would place elsewhere). A part whose CRC does not match its
 * bytes is read, `crcOk` false: the verifier names that part.
 */
export function readZip(bytes: Uint8Array): ReadPart[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 65_535); i--)
    if (view.getUint32(i, true) === 0x06054b50) {
      end = i;
      break;
    }
  if (end < 0) throw new ZipError({ en: 'no end of central directory', es: 'sin el final del directorio central' });
  // Every byte belongs to a part or to the directory: a comment, or an entry the directory does not list, is shown by
  // some ZIP tools (`unzip` prints the comment, streaming readers list every local entry) and covered by no checksum.
  if (end + 22 !== bytes.length || view.getUint16(end + 20, true) !== 0) throw outside(end + 22);
  const count = view.getUint16(end + 10, true);
  const directory = view.getUint32(end + 16, true);
  // Each central entry takes 46 bytes at least, between the directory's start and its end record.
  if (directory > end || count * 46 > end - directory)
    throw new ZipError({ en: 'central directory out of place', es: 'directorio central fuera de lugar' });
  // One disk, its count of entries the total: `unzip` warns of a multi-part archive otherwise.
  if (
    view.getUint16(end + 4, true) !== 0 ||
    view.getUint16(end + 6, true) !== 0 ||
    view.getUint16(end + 8, true) !== count
  )
    throw new ZipError({
      en: 'the end of the central directory is not as this app writes it',
      es: 'el final del directorio central no es como lo escribe esta app',
    });
  let at = directory;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const parts: ReadPart[] = [];
  const names = new Set<string>();
  // The parts' bytes follow one another before the directory, each read (and checksummed) once: entries pointing at
  // the same bytes again would have a small file cost hours of checksums.
  let partsEnd = 0;
  for (let n = 0; n < count; n++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50)
      throw new ZipError({ en: 'bad central entry', es: 'entrada central dañada' });
    const method = view.getUint16(at + 10, true);
    const crc = view.getUint32(at + 16, true);
    const size = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true);
    const extra = view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    const local = view.getUint32(at + 42, true);
    const path = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    if (method !== 0)
      throw new ZipError({
        en: `${path} is compressed (method ${method})`,
        es: `${path} está comprimida (método ${method})`,
      });
    if (!plainName(path))
      throw new ZipError({
        en: `${JSON.stringify(path)} is not a plain relative name (a control character, a backslash, a leading /, or an empty, . or .. segment)`,
        es: `${JSON.stringify(path)} no es un nombre relativo simple (un carácter de control, una diagonal invertida, una / al inicio, o un segmento vacío, . o ..)`,
      });
    const centralField = unlikeWriter(view, at, CENTRAL_FIELDS);
    if (centralField)
      throw new ZipError({
        en: `${path}: the central directory's ${centralField} is not the one this app writes`,
        es: `${path}: el campo ${centralField} del directorio central no es el que escribe esta app`,
      });
    if (names.has(path)) throw new ZipError({ en: `${path} appears twice`, es: `${path} aparece dos veces` });
    names.add(path);
    if (local < partsEnd)
      throw new ZipError({ en: `${path} overlaps another part`, es: `${path} se superpone a otra parte` });
    if (local > partsEnd) throw outside(partsEnd);
    if (local + 30 > directory || view.getUint32(local, true) !== 0x04034b50)
      throw new ZipError({ en: 'bad local entry', es: 'entrada local dañada' });
    const localField = unlikeWriter(view, local, LOCAL_FIELDS);
    if (localField)
      throw new ZipError({
        en: `${path}: the local header's ${localField} is not the one this app writes`,
        es: `${path}: el campo ${localField} del encabezado local no es el que escribe esta app`,
      });
    const localNameLength = view.getUint16(local + 26, true);
    const start = local + 30 + localNameLength + view.getUint16(local + 28, true);
    if (start + size > directory) throw new ZipError({ en: `${path} is cut short`, es: `${path} está incompleta` });
    // A streaming reader takes the name, size and checksum from the local header: they must say what the directory says.
    const sameAsDirectory =
      view.getUint16(local + 8, true) === 0 &&
      view.getUint32(local + 14, true) === crc &&
      view.getUint32(local + 18, true) === size &&
      view.getUint32(local + 22, true) === size &&
      Buffer.compare(
        bytes.subarray(local + 30, local + 30 + localNameLength),
        bytes.subarray(at + 46, at + 46 + nameLength),
      ) === 0;
    if (!sameAsDirectory)
      throw new ZipError({
        en: `${path} is described otherwise in its local header`,
        es: `${path} se describe de otro modo en su encabezado local`,
      });
    partsEnd = start + size;
    const data = bytes.subarray(start, start + size);
    parts.push({ path, data, crcOk: crc32(data) === crc });
    at += 46 + nameLength + extra;
  }
  if (partsEnd !== directory) throw outside(partsEnd);
  if (at !== end || view.getUint32(end + 12, true) !== end - directory) throw outside(at);
  return parts;
}

function writeFields(view: DataView, fields: Field[]): void {
  for (const f of fields)
    if (f.bytes === 2) view.setUint16(f.offset, f.value, true);
    else view.setUint32(f.offset, f.value, true);
}

/** The first field whose value is not the writer's, if any. */
function unlikeWriter(view: DataView, at: number, fields: Field[]): string | undefined {
  for (const f of fields) {
    const value = f.bytes === 2 ? view.getUint16(at + f.offset, true) : view.getUint32(at + f.offset, true);
    if (value !== f.value) return `${f.name} (${value})`;
  }
  return undefined;
}

/**
 * A name every opener extracts as itself, inside the folder: no control character (`python3 -m zipfile -e` writes a
 * line break into the name, and a listing read one line a time then sees two listed parts), no backslash (a folder
 * separator on Windows), nothing absolute, no empty, `.` or `..` segment. The app's names are ASCII (`safe`).
 */
function plainName(path: string): boolean {
  for (const char of path) {
    const code = char.codePointAt(0)!;
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f) || char === '\\') return false;
  }
  return path.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

const outside = (at: number) =>
  new ZipError({
    en: `bytes outside the parts, from byte ${at}`,
    es: `bytes fuera de las partes, desde el byte ${at}`,
  });

/** Why an archive cannot be read, in both languages (shown in small print under the verifier's own words). */
export class ZipError extends Error {
  constructor(readonly reason: { en: string; es: string }) {
    super(reason.en);
  }
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
