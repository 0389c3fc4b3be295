import { describe, expect, it } from 'vitest';
import { sniffVideo } from '../../../common/rules/video-check';

const bytes = (...values: number[]) => Uint8Array.from(values);
const ascii = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
/** An ISO-BMFF file starts with its first box: a 4-byte size, then the type `ftyp` and the brand. */
const isoBmff = (brand: string) => Uint8Array.from([0, 0, 0, 0x20, ...ascii(`ftyp${brand}`)]);

describe('sniffVideo', () => {
  it('recognises WebM/Matroska by its EBML magic, whatever follows', () => {
    expect(sniffVideo(bytes(0x1a, 0x45, 0xdf, 0xa3))).toBe('webm');
    expect(sniffVideo(bytes(0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01))).toBe('webm');
  });

  it('recognises MP4 and MOV by the ftyp box at byte 4, whatever the box size and brand', () => {
    expect(sniffVideo(isoBmff('isom'))).toBe('mp4');
    expect(sniffVideo(isoBmff('qt  '))).toBe('mp4');
    expect(sniffVideo(Uint8Array.from([0, 0, 0, 0x18, ...ascii('ftypmp42')]))).toBe('mp4');
  });

  it('refuses other files, including images, PDFs and near misses of either signature', () => {
    for (const head of [
      bytes(),
      bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a), // PNG
      bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0, 0, 0), // JPEG
      ascii('%PDF-1.7'),
      bytes(0x1a, 0x45, 0xdf, 0xa4), // last magic byte off by one
      bytes(0x1a, 0x45, 0xdf), // cut before the magic ends
      Uint8Array.from([0, 0, 0, 0x20, ...ascii('ftyq')]),
      Uint8Array.from([...ascii('ftyp'), 0, 0, 0, 0x20]), // ftyp at byte 0, not 4
      Uint8Array.from([0, 0, 0, 0x20, ...ascii('fty')]), // cut inside the box type
    ])
      expect(sniffVideo(head), Array.from(head).join(',')).toBeUndefined();
  });
});
