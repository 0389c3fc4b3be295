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
