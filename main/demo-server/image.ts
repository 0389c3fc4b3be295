import { inflateSync } from 'node:zlib';
import { PNG } from 'pngjs';
import jpeg from 'jpeg-js';
import { badRequest } from './errors';

/** What can honestly be measured from the pixels of an upload, without a model. */
export interface ImageMetrics {
  format: 'png' | 'jpeg';
  width: number;
  height: number;
  /** Mean luminance in [0, 1]. */
  brightness: number;
  /** Standard deviation of luminance in [0, 255]; near 0 means a flat picture with nothing in it. */
  contrast: number;
  /** Variance of the Laplacian of luminance: the usual focus measure; low means blurry. */
  sharpness: number;
  /** Share of pixels at or above 250 luminance (specular highlights). */
  glare: number;
  /** Share of pixels below 40 luminance. */
  shadow: number;
}

export const BRIGHTNESS_THRESHOLD = 0.3;
export const SHARPNESS_THRESHOLD = 60;
export const GLARE_THRESHOLD = 0.02;
export const FLAT_IMAGE_CONTRAST = 4;
const MAX_PIXELS = 40_000_000;
/** Metrics are computed on at most about this many pixels (a regular subsample) to keep uploads fast. */
const ANALYSIS_PIXELS = 1_000_000;

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * Decodes base64 (or base64url) text strictly: Node skips characters outside the alphabet, so a decoded length
 * that differs from what the text length implies means the text was not base64. Cheaper than a regex on megabytes.
 */
export function decodeBase64(text: string, field: string): Buffer {
  let compact = text.startsWith('data:') ? text.replace(/^data:[\w/+.-]+;base64,/, '') : text;
  if (/\s/.test(compact)) compact = compact.replace(/\s+/g, '');
  const padding = compact.endsWith('==') ? 2 : compact.endsWith('=') ? 1 : 0;
  const bytes = Buffer.from(compact, compact.includes('-') || compact.includes('_') ? 'base64url' : 'base64');
  if (
    compact.length === 0 ||
    compact.length % 4 === 1 ||
    bytes.length !== Math.floor(((compact.length - padding) * 3) / 4)
  ) {
    throw badRequest(
      `${field} is not valid base64. Send the file bytes encoded as base64 (an optional data: prefix is accepted).`,
      { field },
    );
  }
  return bytes;
}

function decodePixels(
  bytes: Buffer,
  field: string,
): { format: 'png' | 'jpeg'; width: number; height: number; data: Uint8Array } {
  const isPng = PNG_MAGIC.every((b, i) => bytes[i] === b);
  const isJpeg = bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
  if (!isPng && !isJpeg) {
    throw badRequest(`${field} is neither a PNG nor a JPEG image. Upload a photo in one of those formats.`, { field });
  }
  try {
    if (isPng) {
      // The IHDR chunk sits at a fixed offset: refuse decompression bombs before inflating anything.
      const w = bytes.readUInt32BE(16);
      const h = bytes.readUInt32BE(20);
      if (w * h > MAX_PIXELS)
        throw badRequest(`${field} is ${w}×${h} pixels; the limit is 40 megapixels. Send a smaller photo.`, { field });
      const fast = decodeCommonPng(bytes);
      if (fast) return { format: 'png', ...fast };
      // pngjs inflates interlaced images without a bound: inflate once with one, to refuse a bomb before it does.
      inflatePngData(readPngChunks(bytes));
      const png = PNG.sync.read(bytes);
      return { format: 'png', width: png.width, height: png.height, data: png.data };
    }
    const img = jpeg.decode(bytes, {
      useTArray: true,
      formatAsRGBA: true,
      maxResolutionInMP: MAX_PIXELS / 1e6,
      maxMemoryUsageInMB: 512,
    });
    return { format: 'jpeg', width: img.width, height: img.height, data: img.data };
  } catch (err) {
    if (err instanceof Error && err.name === 'DemoHttpError') throw err;
    throw badRequest(
      `${field} could not be decoded as ${isPng ? 'PNG' : 'JPEG'} (${err instanceof Error ? err.message : 'corrupt data'}). The file may be truncated or damaged; capture or export it again.`,
      { field },
    );
  }
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 };
/** Samples per pixel of every PNG color type, palette (3) included: what bounds the inflated size. */
const SAMPLES: Record<number, number> = { ...CHANNELS, 3: 1 };
/** Adam7 passes: x start, y start, x step, y step. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

interface PngChunks {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  interlace: number;
  idat: Buffer[];
}

/** The IHDR fields and IDAT chunks of a PNG; throws when a chunk is cut short or the header is missing. */
function readPngChunks(bytes: Buffer): PngChunks {
  const png: PngChunks = { width: 0, height: 0, bitDepth: 0, colorType: -1, interlace: 0, idat: [] };
  for (let offset = 8; offset + 8 <= bytes.length;) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    const start = offset + 8;
    const end = start + length;
    if (end + 4 > bytes.length) throw new Error(`the ${type} chunk is cut short`);
    if (type === 'IHDR' && length >= 13) {
      png.width = bytes.readUInt32BE(start);
      png.height = bytes.readUInt32BE(start + 4);
      png.bitDepth = bytes[start + 8]!;
      png.colorType = bytes[start + 9]!;
      png.interlace = bytes[start + 12]!;
    } else if (type === 'IDAT') {
      png.idat.push(bytes.subarray(start, end));
    } else if (type === 'IEND') {
      break;
    }
    offset = end + 4;
  }
  if (SAMPLES[png.colorType] === undefined || png.width === 0 || png.height === 0) throw new Error('no IHDR header');
  if (png.width * png.height > MAX_PIXELS) throw new Error(`${png.width}×${png.height} pixels is over 40 megapixels`);
  if (png.idat.length === 0) throw new Error('no image data');
  return png;
}

/** Bytes the declared image inflates to: each row (or each Adam7 pass's row) plus its filter byte. */
function inflatedPngSize(png: PngChunks): number {
  const bits = SAMPLES[png.colorType]! * png.bitDepth;
  const rows = (width: number, height: number) => (width > 0 ? height * (Math.ceil((width * bits) / 8) + 1) : 0);
  if (png.interlace === 0) return rows(png.width, png.height);
  let size = 0;
  for (const [x0, y0, dx, dy] of ADAM7)
    size += rows(Math.ceil((png.width - x0) / dx), Math.max(0, Math.ceil((png.height - y0) / dy)));
  return size;
}

/**
 * The IDAT stream inflated, never past what the declared size needs: a few MB of deflated zeros would otherwise
 * inflate to gigabytes, inside main (the app embeds this server).
 */
function inflatePngData(png: PngChunks): Buffer {
  const limit = inflatedPngSize(png);
  try {
    return inflateSync(png.idat.length === 1 ? png.idat[0]! : Buffer.concat(png.idat), { maxOutputLength: limit });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
      throw new Error(`the image data inflates to more than its ${png.width}×${png.height} pixels need`, {
        cause: err,
      });
    throw err;
  }
}

/**
 * The common case of camera and screenshot PNGs (8-bit gray, gray+alpha, RGB or RGBA, not interlaced) decoded with
 * native inflate and a tight unfilter loop, several times faster than pngjs; other variants return undefined and go
 * to pngjs. Corrupt data throws.
 */
export function decodeCommonPng(bytes: Buffer): { width: number; height: number; data: Uint8Array } | undefined {
  const png = readPngChunks(bytes);
  const { width, height } = png;
  const channels = CHANNELS[png.colorType];
  if (png.bitDepth !== 8 || channels === undefined || png.interlace !== 0) return undefined;
  const raw = inflatePngData(png);
  const stride = width * channels;
  if (raw.length < (stride + 1) * height) throw new Error('the image data is shorter than the header says');
  for (let y = 0; y < height; y++) {
    const row = y * (stride + 1) + 1;
    const up = row - (stride + 1);
    const filter = raw[row - 1];
    switch (filter) {
      case 0:
        break;
      case 1:
        for (let i = channels; i < stride; i++) raw[row + i] = raw[row + i]! + raw[row + i - channels]!;
        break;
      case 2:
        if (y > 0) for (let i = 0; i < stride; i++) raw[row + i] = raw[row + i]! + raw[up + i]!;
        break;
      case 3:
        for (let i = 0; i < stride; i++) {
          const left = i >= channels ? raw[row + i - channels]! : 0;
          const above = y > 0 ? raw[up + i]! : 0;
          raw[row + i] = raw[row + i]! + ((left + above) >> 1);
        }
        break;
      case 4:
        for (let i = 0; i < stride; i++) {
          const a = i >= channels ? raw[row + i - channels]! : 0;
          const b = y > 0 ? raw[up + i]! : 0;
          const c = i >= channels && y > 0 ? raw[up + i - channels]! : 0;
          const p = a + b - c;
          const pa = Math.abs(p - a);
          const pb = Math.abs(p - b);
          const pc = Math.abs(p - c);
          raw[row + i] = raw[row + i]! + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
        }
        break;
      default:
        throw new Error(`unknown row filter ${filter}`);
    }
  }
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    let src = y * (stride + 1) + 1;
    let dst = y * width * 4;
    for (let x = 0; x < width; x++, src += channels, dst += 4) {
      const gray = channels < 3;
      data[dst] = raw[src]!;
      data[dst + 1] = gray ? raw[src]! : raw[src + 1]!;
      data[dst + 2] = gray ? raw[src]! : raw[src + 2]!;
      data[dst + 3] = channels === 2 ? raw[src + 1]! : channels === 4 ? raw[src + 3]! : 255;
    }
  }
  return { width, height, data };
}

export function analyzeImage(bytes: Buffer, field = 'base64Image'): ImageMetrics {
  const { format, width, height, data } = decodePixels(bytes, field);
  if (width === 0 || height === 0) throw badRequest(`${field} has no pixels.`, { field });
  const step = Math.max(1, Math.ceil(Math.sqrt((width * height) / ANALYSIS_PIXELS)));
  const w = Math.floor((width - 1) / step) + 1;
  const h = Math.floor((height - 1) / step) + 1;
  const lum = new Float32Array(w * h);
  let sum = 0;
  let sumSq = 0;
  let bright = 0;
  let dark = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = (y * step * width + x * step) * 4;
      const a = (data[i + 3] ?? 255) / 255;
      // Transparent pixels are composited on white, as a viewer would show them.
      const l = (0.299 * (data[i] ?? 0) + 0.587 * (data[i + 1] ?? 0) + 0.114 * (data[i + 2] ?? 0)) * a + 255 * (1 - a);
      lum[y * w + x] = l;
      sum += l;
      sumSq += l * l;
      if (l >= 250) bright++;
      if (l < 40) dark++;
    }
  }
  const n = w * h;
  const mean = sum / n;
  let lapSum = 0;
  let lapSq = 0;
  let lapN = 0;
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const c = y * w + x;
      const v = lum[c - 1]! + lum[c + 1]! + lum[c - w]! + lum[c + w]! - 4 * lum[c]!;
      lapSum += v;
      lapSq += v * v;
      lapN++;
    }
  }
  const lapMean = lapN ? lapSum / lapN : 0;
  return {
    format,
    width,
    height,
    brightness: mean / 255,
    contrast: Math.sqrt(Math.max(0, sumSq / n - mean * mean)),
    sharpness: lapN ? lapSq / lapN - lapMean * lapMean : 0,
    glare: bright / n,
    shadow: dark / n,
  };
}
