import { authAdvice, backIdAdvice, faceAdvice } from './advice';
import { checkImage, describeImageProblem } from '../../common/rules/image-check';
import type { ImportSnapshot } from './import-jobs';
import { captureState } from './state';
import { NOT_A_VIDEO, sniffVideo } from '../../common/rules/video-check';
import { open } from 'node:fs/promises';
import { serviceAnswer } from '../omni/answer';
import type { CallInput } from '../omni/endpoints';
import type { ParsedInputOf } from '../../common/ipc/define';
import type { capture, ImageSource, ImportJobView } from '../../common/ipc/capture';
import type { MainContext } from '../ports';
import { ReviewError } from '../errors';

type Input<K extends keyof typeof capture> = ParsedInputOf<(typeof capture)[K]>;

/** Checks the photo's bytes again in main (the renderer's check is a courtesy, not a guarantee). */
function imageBody(image: ImageSource): { base64Image: string } | { imageUrl: string } {
  if (image.kind === 'url') return { imageUrl: image.url };
  const { base64 } = image;
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  // 4n+1 characters, or padding on a length not a multiple of 4, is not base64: the file did not arrive whole.
  if (padding > 0 ? base64.length % 4 !== 0 : base64.length % 4 === 1) throw invalidImage(NOT_BASE64, CHOOSE_AGAIN);
  const size = Math.floor(((base64.length - padding) * 3) / 4);
  const check = checkImage(bytesAt(base64, 0, 16), size, image.mimeType);
  if (!check.ok) throw invalidImage(describeImageProblem(check.problem), CHOOSE_PHOTO);
  const whole = check.kind === 'png' ? pngIsWhole(base64, size) : jpegIsWhole(base64, size);
  if (!whole) throw invalidImage(damaged(check.kind === 'png' ? 'PNG' : 'JPEG'), CHOOSE_AGAIN);
  return { base64Image: base64 };
}

type Bilingual = { en: string; es: string };
const invalidImage = (message: Bilingual, advice: Bilingual) => new ReviewError('INVALID_IMAGE', message, advice);
const CHOOSE_PHOTO = { en: 'Choose a PNG or JPEG photo.', es: 'Elige una foto PNG o JPEG.' };
const CHOOSE_AGAIN = {
  en: 'Choose the photo again, or export it again as PNG or JPEG.',
  es: 'Elige la foto de nuevo, o expórtala de nuevo como PNG o JPEG.',
};

const NOT_BASE64 = {
  en: 'The photo did not arrive whole: its data is not valid base64.',
  es: 'La foto no llegó completa: sus datos no son base64 válido.',
};

const damaged = (kind: string) => ({
  en: `This file is not a complete ${kind} photo: it is cut short or damaged.`,
  es: `Este archivo no es una foto ${kind} completa: está cortado o dañado.`,
});

/** `length` bytes from `offset` of a base64 text, decoding only the 4-character groups that hold them. */
function bytesAt(base64: string, offset: number, length: number): Buffer {
  const from = Math.floor(offset / 3) * 4;
  const to = Math.ceil((offset + length) / 3) * 4;
  return Buffer.from(base64.slice(from, to), 'base64').subarray(offset % 3, (offset % 3) + length);
}

/** More chunks (or JPEG segments) than this is no photo: a walk never costs more. */
const MAX_PARTS = 200_000;
const PNG_COLOUR_DEPTHS: Record<number, number[]> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
};

/**
 * A sane IHDR first, then chunk after chunk (reading only their 8-byte headers) to an IEND inside the file: a PNG cut
 * short, or a PNG signature on another file (a PDF), fails here. Bytes after IEND are left alone, as viewers do.
 */
function pngIsWhole(base64: string, size: number): boolean {
  const ihdr = bytesAt(base64, 8, 25);
  if (ihdr.length < 25 || ihdr.readUInt32BE(0) !== 13 || ihdr.toString('latin1', 4, 8) !== 'IHDR') return false;
  const [width, height] = [ihdr.readUInt32BE(8), ihdr.readUInt32BE(12)];
  const [depth, colour, compression, filter, interlace] = ihdr.subarray(16, 21);
  if (width === 0 || height === 0 || width > 0x7fffffff || height > 0x7fffffff) return false;
  if (!PNG_COLOUR_DEPTHS[colour!]?.includes(depth!) || compression !== 0 || filter !== 0 || interlace! > 1)
    return false;
  let at = 8;
  let sawData = false;
  for (let parts = 0; parts < MAX_PARTS && at + 12 <= size; parts++) {
    const head = bytesAt(base64, at, 8);
    const type = head.toString('latin1', 4, 8);
    if (!/^[A-Za-z]{4}$/.test(type)) return false;
    if (type === 'IEND') return sawData;
    if (type === 'IDAT') sawData = true;
    at += 12 + head.readUInt32BE(0);
  }
  return false;
}

/**
 * Segment after segment from SOI (reading only their markers and lengths) to a frame header and the start of scan;
 * then an end-of-image marker: looked for in the last bytes, and only when not there (a motion photo's trailer) in the
 * whole file. A JPEG signature on zeros, or a photo cut short, fails here.
 */
function jpegIsWhole(base64: string, size: number): boolean {
  let at = 2;
  let sawFrame = false;
  for (let parts = 0; parts < MAX_PARTS && at + 4 <= size; parts++) {
    const head = bytesAt(base64, at, 4);
    if (head[0] !== 0xff) return false;
    const marker = head[1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2; // markers without a length
      continue;
    }
    if (marker < 0xc0 || marker === 0xd8 || marker === 0xd9) return false;
    const length = head.readUInt16BE(2);
    if (length < 2) return false;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      const frame = bytesAt(base64, at + 4, 5);
      if (frame.length < 5 || frame.readUInt16BE(1) === 0 || frame.readUInt16BE(3) === 0) return false;
      sawFrame = true;
    }
    if (marker === 0xda) {
      const scan = at + 2 + length;
      if (!sawFrame || scan > size) return false;
      const tail = bytesAt(base64, Math.max(scan, size - 64), Math.min(64, size - scan));
      if (tail.includes(EOI)) return true;
      return bytesAt(base64, scan, size - scan).includes(EOI);
    }
    at += 2 + length;
  }
  return false;
}

const EOI = Buffer.from([0xff, 0xd9]);

const jobNotFound = () =>
  new ReviewError(
    'IMPORT_NOT_FOUND',
    {
      en: 'This video import is no longer known to the app (it was restarted).',
      es: 'La aplicación ya no tiene esta importación de video (se reinició).',
    },
    { en: 'Choose the file and import it again.', es: 'Elige el archivo e impórtalo de nuevo.' },
  );

const stagedNotFound = () =>
  new ReviewError(
    'STAGED_FILE_NOT_FOUND',
    {
      en: 'The chosen file is no longer available to the app.',
      es: 'El archivo elegido ya no está disponible para la aplicación.',
    },
    { en: 'Choose the file again.', es: 'Elige el archivo de nuevo.' },
  );

async function readHead(path: string): Promise<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    const { bytesRead, buffer } = await handle.read(Buffer.alloc(12), 0, 12, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

function view(snapshot: ImportSnapshot | undefined): ImportJobView {
  if (!snapshot) throw jobNotFound();
  return snapshot;
}

/** Photos, face authentication and video import for an interview, each checked again here and recorded in the trail. */
export function captureService(ctx: MainContext) {
  return {
    async addFace({
      interviewId,
      image,
      captureType,
      externalCaptureId,
      recordingId,
      faceCoordinates,
    }: Input<'addFace'>) {
      const query = {
        ...(captureType ? { captureType } : {}),
        ...(externalCaptureId ? { externalCaptureId } : {}),
        ...(recordingId ? { recordingId } : {}),
      };
      const body = { ...imageBody(image), ...(faceCoordinates ? { faceCoordinates } : {}) };
      const response = await ctx.omni().call('addFace', { query, body }, { interviewId });
      const advice = faceAdvice(response);
      await ctx.audit.append({
        interviewId,
        action: 'captured',
        detail: { kind: 'selfie', source: image.kind, recapture: advice.recapture },
      });
      return advice;
    },

    async addBackSecondId({ interviewId, image, captureType }: Input<'addBackSecondId'>) {
      const response = await ctx
        .omni()
        .call(
          'addBackSecondId',
          { query: captureType ? { captureType } : {}, body: imageBody(image) },
          { interviewId },
        );
      const advice = backIdAdvice(response);
      await ctx.audit.append({
        interviewId,
        action: 'captured',
        detail: {
          kind: 'backSecondId',
          source: image.kind,
          recapture: advice.recapture,
          ...(response.failReason ? { failReason: response.failReason } : {}),
        },
      });
      return advice;
    },

    async authenticateFace({ image, hint, recordingId, faceCoordinates }: Input<'authenticateFace'>) {
      const { base64Image } = imageBody(image) as { base64Image: string };
      const body = {
        base64Image,
        ...(hint ? { hint } : {}),
        ...(recordingId ? { recordingId } : {}),
        ...(faceCoordinates ? { faceCoordinates } : {}),
      };
      const response = await ctx.omni().call('authenticateFace', { body });
      const advice = authAdvice(response, hint !== undefined);
      await ctx.audit.append({
        action: 'captured',
        detail: {
          kind: 'faceAuthentication',
          mode: advice.mode,
          overallStatus: response.overallStatus,
          ...(response.error ? { error: response.error.name } : {}),
        },
      });
      return advice;
    },

    async releaseStagedFile(stagedFileId: string) {
      const staged = captureState(ctx).staged;
      const known = staged.get(stagedFileId) !== undefined;
      await staged.release(stagedFileId);
      return { released: known };
    },

    async importVideoStart({ interviewId, stagedFileId, type }: Input<'importVideoStart'>) {
      const { staged, imports } = captureState(ctx);
      const file = staged.get(stagedFileId);
      if (!file) throw stagedNotFound();
      if (!sniffVideo(await readHead(file.path))) {
        await staged.release(stagedFileId);
        throw new ReviewError('NOT_A_VIDEO', NOT_A_VIDEO, {
          en: 'Choose a WebM or MP4 file.',
          es: 'Elige un archivo WebM o MP4.',
        });
      }
      const client = ctx.omni();
      const snapshot = await imports.start(
        { interviewId, filePath: file.path, fileName: file.name, ...(type ? { type } : {}) },
        async (rawBody, { signal }) => {
          // The body travels as `rawBody` (streamed JSON); the typed input is empty on purpose.
          const response = await client.call('importVideo', {} as CallInput<'importVideo'>, {
            interviewId,
            signal,
            rawBody,
          });
          await ctx.audit.append({
            interviewId,
            action: 'captured',
            detail: { kind: 'videoImport', type: type ?? null, bytes: file.size, recordingId: response.recordingId },
          });
          return { recordingId: response.recordingId, answer: serviceAnswer('importVideo', response) };
        },
      );
      // The temp copy (web shell) is deleted once the upload is over, whatever its outcome.
      void imports.settled(snapshot.jobId).then(() => staged.release(stagedFileId));
      return snapshot;
    },

    importVideoStatus: (jobId: string) => view(captureState(ctx).imports.status(jobId)),
    importVideoCancel: async (jobId: string) => view(await captureState(ctx).imports.cancel(jobId)),
  };
}
