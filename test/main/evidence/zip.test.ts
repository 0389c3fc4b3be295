import { describe, expect, it } from 'vitest';
import { crc32, readZip, writeZip, ZipError } from '../../../main/evidence/zip';

const utf8 = (s: string) => new TextEncoder().encode(s);

describe('the stored ZIP of an evidence file', () => {
  it('reads back what it wrote, names in UTF-8, bytes as they were', () => {
    const parts = [
      { path: 'VERIFY.txt', data: utf8('Propósito declarado: revisión\n') },
      { path: 'trail/entries/12.txt', data: utf8('omni-audit-v2\n0000') },
      { path: 'empty', data: new Uint8Array() },
    ];
    const read = readZip(writeZip(parts));
    expect(read.map((p) => [p.path, Buffer.from(p.data).toString(), p.crcOk])).toEqual(
      parts.map((p) => [p.path, Buffer.from(p.data).toString(), true]),
    );
  });

  it('computes the CRC-32 every ZIP tool checks', () => {
    expect(crc32(utf8('123456789')).toString(16)).toBe('cbf43926');
  });

  it('says which part was edited inside the archive without its checksum', () => {
    const zip = writeZip([
      { path: 'a.txt', data: utf8('aaaa') },
      { path: 'b.txt', data: utf8('bbbb') },
    ]);
    const at = Buffer.from(zip).indexOf('bbbb');
    zip[at] = 'c'.charCodeAt(0);
    expect(readZip(zip).map((p) => [p.path, p.crcOk])).toEqual([
      ['a.txt', true],
      ['b.txt', false],
    ]);
  });

  it('refuses what is not one: no directory, a compressed part, a part cut short', () => {
    expect(() => readZip(utf8('not a zip at all'))).toThrow(ZipError);
    const zip = writeZip([{ path: 'a.txt', data: utf8('aaaa') }]);
    const deflated = new Uint8Array(zip);
    const central = Buffer.from(deflated).indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    deflated[central + 10] = 8;
    expect(() => readZip(deflated)).toThrow(/compressed/);
    const cut = new Uint8Array(zip);
    new DataView(cut.buffer).setUint32(central + 20, 1_000, true);
    expect(() => readZip(cut)).toThrow(/cut short/);
  });

  it('refuses a part named twice, parts sharing bytes, and more entries than the directory holds', () => {
    // writeZip refuses to write one (below): the second name is made the first's in the bytes, as a forger would.
    const twice = Buffer.from(
      writeZip([
        { path: 'report.pdf', data: utf8('forged') },
        { path: 'report.pdX', data: utf8('genuine') },
      ]),
    );
    for (let at = twice.indexOf('report.pdX'); at >= 0; at = twice.indexOf('report.pdX', at)) twice.write('f', at + 9);
    expect(() => readZip(new Uint8Array(twice))).toThrow(/report.pdf appears twice/);
    // The second entry points at the first part's bytes: thousands such would cost hours of checksums.
    const zip = writeZip([
      { path: 'a.txt', data: utf8('aaaa') },
      { path: 'b.txt', data: utf8('bbbb') },
    ]);
    const view = new DataView(zip.buffer);
    const central = Buffer.from([0x50, 0x4b, 0x01, 0x02]);
    const first = Buffer.from(zip).indexOf(central);
    const centrals = [first, Buffer.from(zip).indexOf(central, first + 1)];
    const shared = new Uint8Array(zip);
    new DataView(shared.buffer).setUint32(centrals[1]! + 42, view.getUint32(centrals[0]! + 42, true), true);
    expect(() => readZip(shared)).toThrow(/b.txt overlaps another part/);
    try {
      readZip(shared);
    } catch (e) {
      expect((e as ZipError).reason.es).toBe('b.txt se superpone a otra parte');
    }
    const end = Buffer.from(zip).lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    const many = new Uint8Array(zip);
    new DataView(many.buffer).setUint16(end + 10, 65_535, true);
    expect(() => readZip(many)).toThrow(/central directory out of place/);
  });

  it('writes no archive with a part named twice: it would extract as one file, and the first part’s checksum fails', () => {
    const parts = [
      { path: 'contracts/c_1.pdf', data: utf8('contract c:1') },
      { path: 'VERIFY.txt', data: utf8('steps') },
      { path: 'contracts/c_1.pdf', data: utf8('contract c_1') },
    ];
    expect(() => writeZip(parts)).toThrow(ZipError);
    expect(() => writeZip(parts)).toThrow(/contracts\/c_1.pdf appears twice/);
  });

  it('refuses bytes no part holds: a prefix, an entry the directory does not list, a comment, a tail', () => {
    const a = { path: 'a.txt', data: utf8('aaaa') };
    const b = { path: 'b.txt', data: utf8('bbbb') };
    const zip = Buffer.from(writeZip([a, b]));
    const central = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    const shift = (bytes: Buffer, from: number, by: number) => {
      // Moves every offset the directory gives at or after `from`, as a tool writing the extra bytes would.
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const directory = bytes.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
      for (
        let at = directory;
        at < bytes.length && view.getUint32(at, true) === 0x02014b50;
        at += 46 + view.getUint16(at + 28, true)
      ) {
        const offset = view.getUint32(at + 42, true);
        if (offset >= from) view.setUint32(at + 42, offset + by, true);
      }
      const last = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
      view.setUint32(last + 16, view.getUint32(last + 16, true) + by, true);
      return bytes;
    };
    // A hidden "report.pdf" between the parts: streaming readers list it, the directory does not.
    const hidden = Buffer.from(writeZip([{ path: 'report.pdf', data: utf8('forged') }]));
    const hiddenLocal = hidden.subarray(0, hidden.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])));
    const bLocal = 30 + 'a.txt'.length + 4;
    const cases: [string, Buffer][] = [
      ['a prefix', shift(Buffer.concat([Buffer.from('MZ junk'), zip]), 0, 7)],
      [
        'a hidden entry',
        shift(Buffer.concat([zip.subarray(0, bLocal), hiddenLocal, zip.subarray(bLocal)]), bLocal, hiddenLocal.length),
      ],
      [
        'bytes before the directory',
        shift(Buffer.concat([zip.subarray(0, central), Buffer.from('xx'), zip.subarray(central)]), central, 2),
      ],
      ['a tail', Buffer.concat([zip, Buffer.from('tail')])],
    ];
    const comment = Buffer.concat([zip, Buffer.from('VERIFIED')]);
    comment.writeUInt16LE(8, end + 20);
    cases.push(['a comment', comment]);
    for (const [what, bytes] of cases) expect(() => readZip(bytes), what).toThrow(/bytes outside the parts/);
    expect(() => readZip(new Uint8Array(zip))).not.toThrow();
  });

  it('refuses a local header that says otherwise than the directory: what a streaming reader would show', () => {
    const zip = Buffer.from(writeZip([{ path: 'report.pdf', data: utf8('genuine') }]));
    const renamed = Buffer.from(zip);
    renamed.write('REPORT.pdf', 30);
    const resized = Buffer.from(zip);
    resized.writeUInt32LE(3, 18);
    for (const bytes of [renamed, resized])
      expect(() => readZip(bytes)).toThrow(/report.pdf is described otherwise in its local header/);
  });
});

describe('what the reader accepts: only what the writer writes (red team 17A)', () => {
  const zip = () =>
    Buffer.from(
      writeZip([
        { path: 'MANIFEST.sha256', data: utf8('listed') },
        { path: 'report.pdf', data: utf8('%PDF-1.7 report') },
      ]),
    );
  const localOf = (bytes: Buffer) => bytes.indexOf('report.pdf') - 30;
  const reportCentral = (bytes: Buffer) => bytes.lastIndexOf('report.pdf') - 46;
  const endOf = (bytes: Buffer) => bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));

  it('refuses every header field another writer, or an editor, sets otherwise', () => {
    const variants: [string, (b: Buffer) => void, RegExp][] = [
      // unzip asks for a password and skips the part; python's zipfile stops there.
      [
        'encrypted',
        (b) => (b.writeUInt16LE(0x0801, localOf(b) + 6), b.writeUInt16LE(0x0801, reportCentral(b) + 8)),
        /flags \(2049\)/,
      ],
      ['encrypted, directory only', (b) => b.writeUInt16LE(0x0801, reportCentral(b) + 8), /central directory's flags/],
      [
        'data descriptor',
        (b) => (b.writeUInt16LE(0x0808, localOf(b) + 6), b.writeUInt16LE(0x0808, reportCentral(b) + 8)),
        /flags/,
      ],
      // unzip extracts the PDF as a link whose target is its bytes.
      ['a symlink', (b) => b.writeUInt32LE((0o120777 << 16) >>> 0, reportCentral(b) + 38), /external attributes/],
      ['made by MS-DOS', (b) => b.writeUInt16LE(0x0014, reportCentral(b) + 4), /version made by \(20\)/],
      ['version needed', (b) => b.writeUInt16LE(45, localOf(b) + 4), /local header's version needed/],
      ['a time', (b) => b.writeUInt16LE(1, reportCentral(b) + 12), /time \(1\)/],
      ['a date', (b) => b.writeUInt16LE(0x5821, localOf(b) + 12), /date/],
      ['internal attributes', (b) => b.writeUInt16LE(1, reportCentral(b) + 36), /internal attributes/],
      ['a local extra field', (b) => b.writeUInt16LE(4, localOf(b) + 28), /local header's extra field length/],
      ['a central extra field', (b) => b.writeUInt16LE(4, reportCentral(b) + 30), /extra field length/],
      ['an entry comment', (b) => b.writeUInt16LE(3, reportCentral(b) + 32), /comment length/],
      ['a disk number', (b) => b.writeUInt16LE(1, reportCentral(b) + 34), /disk number/],
      // unzip: "claims to be last disk of a multi-part archive".
      [
        'a multi-disk end',
        (b) => (b.writeUInt16LE(1, endOf(b) + 4), b.writeUInt16LE(1, endOf(b) + 6)),
        /end of the central directory/,
      ],
      ['this disk’s count', (b) => b.writeUInt16LE(1, endOf(b) + 8), /end of the central directory/],
    ];
    for (const [what, change, reason] of variants) {
      const bytes = zip();
      change(bytes);
      expect(() => readZip(new Uint8Array(bytes)), what).toThrow(reason);
      try {
        readZip(new Uint8Array(bytes));
      } catch (e) {
        expect((e as ZipError).reason.es, what).toMatch(/no es (el que|como lo) escribe esta app/);
      }
    }
    // A part's bytes edited without its CRC: still that part's failure, not the archive's.
    const edited = zip();
    edited.write('X', edited.indexOf('%PDF') + 1);
    expect(readZip(new Uint8Array(edited)).map((p) => [p.path, p.crcOk])).toEqual([
      ['MANIFEST.sha256', true],
      ['report.pdf', false],
    ]);
  });

  it('refuses a name an opener would place elsewhere or read as another: control characters, \\, /, . and ..', () => {
    for (const path of [
      'VERIFY.txt\nreport.pdf',
      'report.pdf\0.txt',
      'tab\tname',
      'del\u007f',
      'c1\u0085',
      'trail\\x',
      '/tmp/x',
      '../x',
      'trail/../report.pdf',
      './report.pdf',
      'trail//x',
      'trail/',
    ]) {
      const bytes = writeZip([
        { path: 'report.pdf', data: utf8('r') },
        { path, data: utf8('added') },
      ]);
      expect(() => readZip(bytes), JSON.stringify(path)).toThrow(/is not a plain relative name/);
      try {
        readZip(bytes);
      } catch (e) {
        expect((e as ZipError).reason.es).toContain('no es un nombre relativo simple');
      }
    }
    const names = ['trail/checkpoints/5.statement.txt', 'contracts/01-demo-clean_pass.pdf', 'MANIFEST.sha256'];
    expect(readZip(writeZip(names.map((path) => ({ path, data: utf8(path) })))).map((p) => p.path)).toEqual(names);
  });
});
