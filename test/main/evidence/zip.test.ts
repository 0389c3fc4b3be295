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
});
