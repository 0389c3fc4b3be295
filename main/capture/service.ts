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
  const head = Buffer.from(image.base64.slice(0, 16), 'base64');
  const padding = image.base64.endsWith('==') ? 2 : image.base64.endsWith('=') ? 1 : 0;
  const size = (image.base64.length / 4) * 3 - padding;
  const check = checkImage(head, size, image.mimeType);
  if (!check.ok) {
    throw new ReviewError('INVALID_IMAGE', describeImageProblem(check.problem), {
      en: 'Choose a PNG or JPEG photo.',
      es: 'Elige una foto PNG o JPEG.',
    });
  }
  return { base64Image: image.base64 };
}

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
