/**
 * Just enough EBML/Matroska to build a long WebM from a short one: read element headers, write elements, and
 * repeat a clip's clusters with shifted timecodes behind a correct Duration, SeekHead and Cues, so a player can
 * seek anywhere with one Range request instead of reading the file.
 */

export const Id = {
  EBML: 0x1a45dfa3,
  Segment: 0x18538067,
  SeekHead: 0x114d9b74,
  Seek: 0x4dbb,
  SeekID: 0x53ab,
  SeekPosition: 0x53ac,
  Info: 0x1549a966,
  TimecodeScale: 0x2ad7b1,
  Duration: 0x4489,
  Tracks: 0x1654ae6b,
  TrackEntry: 0xae,
  TrackNumber: 0xd7,
  TrackType: 0x83,
  Cluster: 0x1f43b675,
  Timecode: 0xe7,
  SimpleBlock: 0xa3,
  Cues: 0x1c53bb6b,
  CuePoint: 0xbb,
  CueTime: 0xb3,
  CueTrackPositions: 0xb7,
  CueTrack: 0xf7,
  CueClusterPosition: 0xf1,
  CueRelativePosition: 0xf0,
  Void: 0xec,
} as const;

export interface EbmlElement {
  id: number;
  /** Offset of the ID's first byte. */
  start: number;
  dataStart: number;
  dataEnd: number;
}

/** Reads a variable-length integer; `keepMarker` keeps the length bits (element IDs are written that way). */
export function readVint(
  bytes: Uint8Array,
  pos: number,
  keepMarker = false,
): { value: number; length: number; allOnes: boolean } {
  const first = bytes[pos];
  if (first === undefined) throw new Error(`EBML: variable-length integer past the end at ${pos}`);
  let length = 1;
  while (length <= 8 && !(first & (0x80 >> (length - 1)))) length++;
  if (length > 8) throw new Error(`EBML: invalid variable-length integer at ${pos}`);
  if (pos + length > bytes.length) throw new Error(`EBML: variable-length integer at ${pos} runs past the end`);
  const payloadMask = (0x80 >> (length - 1)) - 1;
  let value = keepMarker ? first : first & payloadMask;
  let allOnes = (first & payloadMask) === payloadMask;
  for (let i = 1; i < length; i++) {
    const byte = bytes[pos + i]!;
    value = value * 256 + byte;
    if (byte !== 0xff) allOnes = false;
  }
  return { value, length, allOnes };
}

/** The elements between `start` and `end` (one level; recurse with the children's data range). */
export function readElements(bytes: Uint8Array, start = 0, end = bytes.length): EbmlElement[] {
  const out: EbmlElement[] = [];
  let pos = start;
  while (pos < end) {
    const id = readVint(bytes, pos, true);
    const size = readVint(bytes, pos + id.length);
    const dataStart = pos + id.length + size.length;
    // Unknown size (live streams): the element runs to the end of its parent.
    const dataEnd = size.allOnes ? end : dataStart + size.value;
    if (dataEnd > end)
      throw new Error(`EBML: element 0x${id.value.toString(16)} at ${pos} runs past its parent (${dataEnd} > ${end})`);
    out.push({ id: id.value, start: pos, dataStart, dataEnd });
    pos = dataEnd;
  }
  return out;
}

export function readUint(bytes: Uint8Array, element: EbmlElement): number {
  let value = 0;
  for (let i = element.dataStart; i < element.dataEnd; i++) value = value * 256 + bytes[i]!;
  return value;
}

export function readFloat(bytes: Uint8Array, element: EbmlElement): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset + element.dataStart, element.dataEnd - element.dataStart);
  if (view.byteLength === 4) return view.getFloat32(0);
  if (view.byteLength === 8) return view.getFloat64(0);
  if (view.byteLength === 0) return 0;
  throw new Error(`EBML: a float of ${view.byteLength} bytes`);
}

function encodeId(id: number): Uint8Array {
  const out: number[] = [];
  for (let v = id; v > 0; v = Math.floor(v / 256)) out.unshift(v % 256);
  return Uint8Array.from(out);
}

/** A size as the shortest variable-length integer, or exactly `width` bytes when given. */
export function encodeSize(size: number, width?: number): Uint8Array {
  let length = 1;
  while (size >= 2 ** (7 * length) - 1) length++;
  if (width !== undefined) {
    if (width < length) throw new Error(`EBML: ${size} does not fit in ${width} bytes`);
    length = width;
  }
  if (length > 8) throw new Error(`EBML: size ${size} too large`);
  const out = new Uint8Array(length);
  let v = size;
  for (let i = length - 1; i >= 0; i--) {
    out[i] = v % 256;
    v = Math.floor(v / 256);
  }
  out[0]! |= 0x80 >> (length - 1);
  return out;
}

export function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let pos = 0;
  for (const part of parts) {
    out.set(part, pos);
    pos += part.length;
  }
  return out;
}

export function element(id: number, ...children: Uint8Array[]): Uint8Array {
  const data = concat(children);
  return concat([encodeId(id), encodeSize(data.length), data]);
}

/** An unsigned integer element; `width` fixes its byte count so offsets written later do not move anything. */
export function uintElement(id: number, value: number, width?: number): Uint8Array {
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`EBML: ${value} is not an unsigned integer`);
  const bytes: number[] = [];
  for (let v = value; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256);
  if (bytes.length === 0) bytes.push(0);
  if (width !== undefined) {
    if (bytes.length > width) throw new Error(`EBML: ${value} does not fit in ${width} bytes`);
    while (bytes.length < width) bytes.unshift(0);
  }
  return element(id, Uint8Array.from(bytes));
}

export function floatElement(id: number, value: number): Uint8Array {
  const data = new Uint8Array(8);
  new DataView(data.buffer).setFloat64(0, value);
  return element(id, data);
}

export interface CueEntry {
  /** In TimecodeScale units (milliseconds for ffmpeg's and Chromium's files). */
  time: number;
  /** Cluster offset from the start of the Segment's data, as Matroska defines it. */
  clusterPosition: number;
  /** The keyframe's offset inside the cluster's data. */
  relativePosition: number;
}

export interface LoopedWebm {
  bytes: Uint8Array;
  /** Segment duration in TimecodeScale units. */
  duration: number;
  timecodeScale: number;
  loops: number;
  cues: CueEntry[];
}

const only = (elements: EbmlElement[], id: number, what: string): EbmlElement => {
  const found = elements.filter((e) => e.id === id);
  if (found.length !== 1) throw new Error(`WebM: expected one ${what}, found ${found.length}`);
  return found[0]!;
};

/**
 * Repeats the clusters of `source` until the result lasts at least `minDuration` (TimecodeScale units), each copy
 * shifted by the source's duration. Each source cluster must start with a video keyframe (ffmpeg's WebM muxer
 * does this): the copies then decode on their own and every cluster gets a cue.
 */
export function loopWebm(source: Uint8Array, minDuration: number): LoopedWebm {
  const top = readElements(source);
  const header = only(top, Id.EBML, 'EBML header');
  const segment = only(top, Id.Segment, 'Segment');
  const children = readElements(source, segment.dataStart, segment.dataEnd);
  const info = only(children, Id.Info, 'Info');
  const tracks = only(children, Id.Tracks, 'Tracks');
  const infoChildren = readElements(source, info.dataStart, info.dataEnd);
  const scaleElement = infoChildren.find((e) => e.id === Id.TimecodeScale);
  const timecodeScale = scaleElement ? readUint(source, scaleElement) : 1_000_000;
  const durationElement = infoChildren.find((e) => e.id === Id.Duration);
  if (!durationElement) throw new Error('WebM: the source has no Duration to loop by');
  const period = Math.ceil(readFloat(source, durationElement));

  const videoTrack = readElements(source, tracks.dataStart, tracks.dataEnd)
    .filter((e) => e.id === Id.TrackEntry)
    .map((entry) => readElements(source, entry.dataStart, entry.dataEnd))
    .find((fields) => fields.some((f) => f.id === Id.TrackType && readUint(source, f) === 1));
  const videoNumberElement = videoTrack?.find((f) => f.id === Id.TrackNumber);
  if (!videoNumberElement) throw new Error('WebM: the source has no video track');
  const videoTrackNumber = readUint(source, videoNumberElement);

  // Each source cluster as its timecode, its other children verbatim, and where its first video keyframe sits.
  const clusters = children
    .filter((e) => e.id === Id.Cluster)
    .map((cluster) => {
      const parts = readElements(source, cluster.dataStart, cluster.dataEnd);
      const timecodeElement = parts.find((p) => p.id === Id.Timecode);
      if (!timecodeElement) throw new Error(`WebM: cluster at ${cluster.start} has no Timecode`);
      const timecode = readUint(source, timecodeElement);
      // Position and PrevSize would be wrong once clusters move; they are optional, so they are dropped.
      const kept = parts.filter((p) => p.id !== Id.Timecode && p.id !== 0xa7 && p.id !== 0xab);
      let offset = 0;
      let keyframe: { relativePosition: number; time: number } | undefined;
      let lastBlockTime = timecode;
      for (const part of kept) {
        if (part.id === Id.SimpleBlock) {
          const track = readVint(source, part.dataStart);
          const at = part.dataStart + track.length;
          const relative = new DataView(source.buffer, source.byteOffset + at, 2).getInt16(0);
          lastBlockTime = Math.max(lastBlockTime, timecode + relative);
          const isKey = (source[at + 2]! & 0x80) !== 0;
          if (!keyframe && isKey && track.value === videoTrackNumber)
            keyframe = { relativePosition: offset, time: timecode + relative };
        }
        offset += part.dataEnd - part.start;
      }
      if (!keyframe)
        throw new Error(`WebM: cluster at ${cluster.start} has no video keyframe, so its copies could not be cued`);
      return { timecode, body: kept.map((p) => source.subarray(p.start, p.dataEnd)), keyframe, lastBlockTime };
    });
  if (clusters.length === 0) throw new Error('WebM: the source has no clusters');
  const lastBlock = Math.max(...clusters.map((c) => c.lastBlockTime));
  if (lastBlock >= period)
    throw new Error(`WebM: a block at ${lastBlock} lies past the duration ${period}; copies would overlap`);

  const loops = Math.max(1, Math.ceil(minDuration / period));
  const duration = loops * period;

  // Segment layout: SeekHead, Info, Tracks, Cues, Clusters…. Cues in front (as ffmpeg's `cues_to_front`) put the
  // whole index in the first few KB a player reads anyway: seeking costs no request to the end of the file. The
  // positions in SeekHead and Cues have a fixed width, so both can be sized before the offsets are known.
  const seekHead = (infoAt: number, tracksAt: number, cuesAt: number) =>
    element(
      Id.SeekHead,
      ...[
        [Id.Info, infoAt],
        [Id.Tracks, tracksAt],
        [Id.Cues, cuesAt],
      ].map(([id, at]) => element(Id.Seek, element(Id.SeekID, encodeId(id!)), uintElement(Id.SeekPosition, at!, 8))),
    );
  const cuesElement = (entries: CueEntry[]) =>
    element(
      Id.Cues,
      ...entries.map((cue) =>
        element(
          Id.CuePoint,
          uintElement(Id.CueTime, cue.time, 8),
          element(
            Id.CueTrackPositions,
            uintElement(Id.CueTrack, videoTrackNumber),
            uintElement(Id.CueClusterPosition, cue.clusterPosition, 8),
            uintElement(Id.CueRelativePosition, cue.relativePosition, 8),
          ),
        ),
      ),
    );
  const newInfo = element(
    Id.Info,
    ...infoChildren.filter((e) => e.id !== Id.Duration).map((e) => source.subarray(e.start, e.dataEnd)),
    floatElement(Id.Duration, duration),
  );
  const tracksBytes = source.subarray(tracks.start, tracks.dataEnd);
  const infoAt = seekHead(0, 0, 0).length;
  const tracksAt = infoAt + newInfo.length;
  const cuesAt = tracksAt + tracksBytes.length;
  const placeholder = Array.from({ length: loops * clusters.length }, () => ({
    time: 0,
    clusterPosition: 0,
    relativePosition: 0,
  }));

  const clusterBytes: Uint8Array[] = [];
  const cues: CueEntry[] = [];
  let position = cuesAt + cuesElement(placeholder).length;
  for (let loop = 0; loop < loops; loop++) {
    const shift = loop * period;
    for (const cluster of clusters) {
      const timecode = uintElement(Id.Timecode, cluster.timecode + shift);
      const bytes = element(Id.Cluster, timecode, ...cluster.body);
      // The relative position counts from the cluster's data start, where the new Timecode comes first.
      cues.push({
        time: cluster.keyframe.time + shift,
        clusterPosition: position,
        relativePosition: timecode.length + cluster.keyframe.relativePosition,
      });
      clusterBytes.push(bytes);
      position += bytes.length;
    }
  }
  const segmentData = [seekHead(infoAt, tracksAt, cuesAt), newInfo, tracksBytes, cuesElement(cues), ...clusterBytes];
  const segmentSize = segmentData.reduce((n, p) => n + p.length, 0);
  const bytes = concat([
    source.subarray(header.start, header.dataEnd),
    encodeId(Id.Segment),
    encodeSize(segmentSize, 8),
    ...segmentData,
  ]);
  return { bytes, duration, timecodeScale, loops, cues };
}
