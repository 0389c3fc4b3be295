import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { VIDEO_SELFIE_FIXTURE } from '../../../main/demo-server/media';
import {
  Id,
  concat,
  element,
  encodeSize,
  floatElement,
  loopWebm,
  readElements,
  readFloat,
  readUint,
  readVint,
  uintElement,
  type EbmlElement,
} from '../../../main/demo-server/webm';

const clip = new Uint8Array(readFileSync(VIDEO_SELFIE_FIXTURE));
const MASTERS = new Set<number>([
  Id.EBML,
  Id.Segment,
  Id.SeekHead,
  Id.Seek,
  Id.Info,
  Id.Tracks,
  Id.TrackEntry,
  0xe0,
  0xe1,
  Id.Cluster,
  Id.Cues,
  Id.CuePoint,
  Id.CueTrackPositions,
  0x1254c367,
  0x7373,
  0x63c0,
  0x67c8,
]);

/** Walks the whole tree; readElements throws if any child runs past its parent. Returns how many elements it saw. */
function walk(bytes: Uint8Array, start = 0, end = bytes.length): number {
  return readElements(bytes, start, end).reduce(
    (n, e) => n + 1 + (MASTERS.has(e.id) ? walk(bytes, e.dataStart, e.dataEnd) : 0),
    0,
  );
}

const child = (bytes: Uint8Array, parent: EbmlElement, id: number) =>
  readElements(bytes, parent.dataStart, parent.dataEnd).find((e) => e.id === id)!;

describe('EBML primitives', () => {
  it('round-trips sizes through the shortest and a fixed width, and refuses what does not fit', () => {
    for (const n of [0, 1, 126, 127, 16_382, 16_383, 2 ** 21, 24_051_984, 2 ** 49]) {
      const encoded = encodeSize(n);
      expect(readVint(encoded, 0)).toMatchObject({ value: n, length: encoded.length, allOnes: false });
      expect(readVint(encodeSize(n, 8), 0)).toMatchObject({ value: n, length: 8 });
    }
    // 127 in one byte would be the all-ones "unknown size" marker, so it takes two.
    expect(encodeSize(127)).toHaveLength(2);
    expect(() => encodeSize(300, 1)).toThrow(/does not fit/);
    expect(() => uintElement(Id.CueTime, -1)).toThrow(/unsigned/);
    expect(() => readVint(new Uint8Array([0]), 0)).toThrow(/invalid/);
    expect(() => readVint(new Uint8Array([0x40]), 0)).toThrow(/past the end/);
  });

  it('writes elements that read back with their values', () => {
    const bytes = element(
      Id.Info,
      uintElement(Id.TimecodeScale, 1_000_000),
      floatElement(Id.Duration, 600_450),
      uintElement(Id.SeekPosition, 5, 8),
    );
    const [info] = readElements(bytes);
    expect(info!.id).toBe(Id.Info);
    const fields = readElements(bytes, info!.dataStart, info!.dataEnd);
    expect(fields.map((f) => f.id)).toEqual([Id.TimecodeScale, Id.Duration, Id.SeekPosition]);
    expect(readUint(bytes, fields[0]!)).toBe(1_000_000);
    expect(readFloat(bytes, fields[1]!)).toBe(600_450);
    expect(fields[2]!.dataEnd - fields[2]!.dataStart).toBe(8);
    expect(readUint(bytes, fields[2]!)).toBe(5);
  });

  it('refuses a child that runs past its parent', () => {
    const truncated = concat([new Uint8Array([0x15, 0x49, 0xa9, 0x66]), encodeSize(40), new Uint8Array(10)]);
    expect(() => readElements(truncated)).toThrow(/runs past/);
  });
});

describe('loopWebm', () => {
  const long = loopWebm(clip, 10 * 60_000);
  const bytes = long.bytes;
  const [header, segment] = readElements(bytes);
  const segmentChildren = readElements(bytes, segment!.dataStart, segment!.dataEnd);
  const clusters = segmentChildren.filter((e) => e.id === Id.Cluster);

  it('is one valid EBML tree: header, then a Segment whose size covers the rest of the file', () => {
    expect(header!.id).toBe(Id.EBML);
    expect(segment!.id).toBe(Id.Segment);
    expect(segment!.dataEnd).toBe(bytes.length);
    expect(walk(bytes)).toBeGreaterThan(600 * 4);
    // The index in front of the media: a player has every cue after its first read.
    expect(segmentChildren.slice(0, 4).map((e) => e.id)).toEqual([Id.SeekHead, Id.Info, Id.Tracks, Id.Cues]);
    expect(segmentChildren.slice(4).every((e) => e.id === Id.Cluster)).toBe(true);
    expect(segmentChildren[3]!.dataEnd).toBeLessThan(64 * 1024);
  });

  it('lasts the clip repeated whole: 150 copies of 4.003 s, Duration written in Info', () => {
    const clipInfo = readElements(clip, readElements(clip)[1]!.dataStart, readElements(clip)[1]!.dataEnd).find(
      (e) => e.id === Id.Info,
    )!;
    const clipDuration = readFloat(clip, child(clip, clipInfo, Id.Duration));
    expect(clipDuration).toBe(4003);
    expect(long.loops).toBe(150);
    expect(long.duration).toBe(150 * 4003);
    const info = segmentChildren.find((e) => e.id === Id.Info)!;
    expect(readFloat(bytes, child(bytes, info, Id.Duration))).toBe(600_450);
    expect(readUint(bytes, child(bytes, info, Id.TimecodeScale))).toBe(1_000_000);
    expect(clusters).toHaveLength(150 * 4);
    // 150 copies of the clip's clusters (timecodes may take a byte or two more), the headers only once.
    const clipSegment = readElements(clip)[1]!;
    const clipMedia = readElements(clip, clipSegment.dataStart, clipSegment.dataEnd)
      .filter((e) => e.id === Id.Cluster)
      .reduce((n, c) => n + c.dataEnd - c.start, 0);
    const media = clusters.reduce((n, c) => n + c.dataEnd - c.start, 0);
    expect(media).toBeGreaterThanOrEqual(150 * clipMedia);
    expect(media).toBeLessThanOrEqual(150 * clipMedia + clusters.length * 3);
  });

  it('shifts every copy by the clip duration, so cluster timecodes only increase', () => {
    const timecodes = clusters.map((c) => readUint(bytes, child(bytes, c, Id.Timecode)));
    expect(timecodes.slice(0, 5)).toEqual([0, 991, 1990, 2988, 4003]);
    expect(timecodes[timecodes.length - 1]).toBe(149 * 4003 + 2988);
    expect(timecodes.every((t, i) => i === 0 || t > timecodes[i - 1]!)).toBe(true);
  });

  it('points the SeekHead at Info, Tracks and Cues', () => {
    const seekHead = segmentChildren[0]!;
    const seeks = readElements(bytes, seekHead.dataStart, seekHead.dataEnd).map((seek) => {
      const id = child(bytes, seek, Id.SeekID);
      return { id: readUint(bytes, id), position: readUint(bytes, child(bytes, seek, Id.SeekPosition)) };
    });
    expect(seeks.map((s) => s.id)).toEqual([Id.Info, Id.Tracks, Id.Cues]);
    for (const { id, position } of seeks) {
      expect(readVint(bytes, segment!.dataStart + position, true).value).toBe(id);
    }
  });

  it('has one cue per cluster, each landing on that cluster and on a video keyframe at the cue time', () => {
    const cuesElement = segmentChildren.find((e) => e.id === Id.Cues)!;
    const points = readElements(bytes, cuesElement.dataStart, cuesElement.dataEnd);
    expect(points).toHaveLength(clusters.length);
    expect(long.cues).toHaveLength(clusters.length);
    let previous = -1;
    points.forEach((point, i) => {
      const time = readUint(bytes, child(bytes, point, Id.CueTime));
      const positions = child(bytes, point, Id.CueTrackPositions);
      const clusterPosition = readUint(bytes, child(bytes, positions, Id.CueClusterPosition));
      const relative = readUint(bytes, child(bytes, positions, Id.CueRelativePosition));
      expect(readUint(bytes, child(bytes, positions, Id.CueTrack))).toBe(1);
      expect(time).toBeGreaterThan(previous);
      previous = time;
      expect(long.cues[i]).toEqual({ time, clusterPosition, relativePosition: relative });

      const cluster = clusters[i]!;
      expect(segment!.dataStart + clusterPosition).toBe(cluster.start);
      const block = readElements(bytes, cluster.dataStart + relative, cluster.dataEnd)[0]!;
      expect(block.id).toBe(Id.SimpleBlock);
      const track = readVint(bytes, block.dataStart);
      expect(track.value).toBe(1);
      const at = block.dataStart + track.length;
      const relativeTime = new DataView(bytes.buffer, bytes.byteOffset + at, 2).getInt16(0);
      expect(readUint(bytes, child(bytes, cluster, Id.Timecode)) + relativeTime).toBe(time);
      expect(bytes[at + 2]! & 0x80).toBe(0x80);
    });
    expect(long.cues[4]!.time).toBe(4003 + 3);
  });

  it('refuses a source it cannot loop', () => {
    expect(() => loopWebm(clip.subarray(0, 40), 1000)).toThrow(/past the end|runs past/);
    expect(() => loopWebm(element(Id.EBML), 1000)).toThrow(/Segment/);
  });
});
