import { z } from 'zod';
import { MAX_IMAGE_BYTES } from '../rules/image-check';
import type { CaptureType, RecordingType, SessionStatus } from '../omni/common';
import {
  CaptureType as CaptureTypeSchema,
  FaceCoordinates,
  RecordingType as RecordingTypeSchema,
} from '../omni/common';
import type { AddBackSecondIdResponse } from '../omni/id';
import type { AddFaceResponse, AuthenticateResponse } from '../omni/face';
import type { ServiceAnswer } from '../views';
import { channel, type IpcErrorData } from './define';
import { InterviewId } from './queue';

/**
 * Capture on behalf of a user: selfie, back of second ID, face authentication, video import.
 * Session-bound calls (selfie, back of ID, video) need the interview's session token, which stays in main.
 */

export type Bilingual = { en: string; es: string };
export type CellValue = string | number | boolean | null;

/** How one response field reads for the analyst; the renderer words it from `field` and `verdict`. */
export type Verdict = 'ok' | 'recapture' | 'warning' | 'info' | 'notChecked';
export interface IndicatorView {
  field: string;
  value: CellValue;
  verdict: Verdict;
  /** An enum value newer than the spec: shown as it came, marked so. */
  notInSpec?: true;
}

/** A catalog explanation (face status, failReason, auth error name) ready to show in either language. */
export interface ExplanationView {
  code: string;
  message: Bilingual;
  advice: Bilingual;
  retryable: boolean;
}

export interface AttemptsView {
  max: number;
  remaining: number;
}

export interface FaceResultView {
  /** The answer redacted and shortened as `answer.body` is (the same value), typed for the screen. */
  response: AddFaceResponse;
  indicators: IndicatorView[];
  /** Any indicator says recapture. */
  recapture: boolean;
  attempts?: AttemptsView;
  sessionStatus?: SessionStatus;
  answer: ServiceAnswer;
}

export interface BackIdResultView {
  /** The answer redacted and shortened as `answer.body` is (the same value), typed for the screen. */
  response: AddBackSecondIdResponse;
  indicators: IndicatorView[];
  recapture: boolean;
  failReason?: ExplanationView;
  attempts?: AttemptsView;
  sessionStatus?: SessionStatus;
  answer: ServiceAnswer;
}

export interface AuthResultView {
  mode: 'oneToOne' | 'oneToN';
  /** The answer redacted and shortened as `answer.body` is (the same value), typed for the screen. */
  response: AuthenticateResponse;
  passed: boolean;
  candidate?: string;
  /** The `error.name` explained; the service's own message is in `response.error.message`. */
  error?: ExplanationView;
  attempts?: AttemptsView;
  answer: ServiceAnswer;
}

export interface StagedFileView {
  stagedFileId: string;
  name: string;
  size: number;
}

export type ImportState = 'uploading' | 'processing' | 'done' | 'failed' | 'cancelled';
export interface ImportJobView {
  jobId: string;
  interviewId: string;
  fileName: string;
  type?: RecordingType;
  state: ImportState;
  bytesDone: number;
  totalBytes: number;
  bytesPerSecond: number;
  secondsLeft: number | null;
  startedAt: string;
  finishedAt?: string;
  recordingId?: string;
  /** The service's answer once the import is done. */
  answer?: ServiceAnswer;
  error?: IpcErrorData;
}

export type { CaptureType, RecordingType };

/**
 * How a File the user picked reaches main without its bytes crossing IPC (installed by the preloads as
 * `window.omniFiles`). Web shell: streamed by the browser to the loopback host's staging route, written to a temp
 * file. Electron: preload passes the file's path (`webUtils.getPathForFile`) on a preload-only channel.
 * Either way the renderer only ever holds the returned id.
 */
export interface FileStager {
  stage(
    file: File,
    opts?: { onProgress?: (sentBytes: number, totalBytes: number) => void; signal?: AbortSignal },
  ): Promise<StagedFileView>;
}
/** Web shell: `PUT` the raw file bytes here with the shell key header; the answer is a StagedFileView. */
export const STAGING_ROUTE = '/staging';
/** URL-encoded display name of the staged file. */
export const STAGING_NAME_HEADER = 'x-omni-file-name';
/** Electron: the preload-only channel that registers a picked file's path. */
export const STAGE_PATH_CHANNEL = 'files:stage-path';

const MAX_IMAGE_BASE64 = Math.ceil(MAX_IMAGE_BYTES / 3) * 4;

/** A photo picked from disk (checked in the renderer, checked again in main) or an allow-listed https URL. */
export const ImageSource = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('file'),
      base64: z
        .string()
        .min(4)
        .max(MAX_IMAGE_BASE64)
        .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'Must be base64'),
      mimeType: z.enum(['image/png', 'image/jpeg']),
      name: z.string().max(255),
    })
    .strict(),
  z.object({ kind: z.literal('url'), url: z.url({ protocol: /^https?$/ }).max(2048) }).strict(),
]);
export type ImageSource = z.infer<typeof ImageSource>;

const OptionalId = z.string().trim().min(1).max(200).optional();

export const capture = {
  addFace: channel<FaceResultView>()(
    z
      .object({
        interviewId: InterviewId,
        image: ImageSource,
        captureType: CaptureTypeSchema.optional(),
        externalCaptureId: OptionalId,
        recordingId: OptionalId,
        faceCoordinates: FaceCoordinates.optional(),
      })
      .strict(),
  ),
  addBackSecondId: channel<BackIdResultView>()(
    z.object({ interviewId: InterviewId, image: ImageSource, captureType: CaptureTypeSchema.optional() }).strict(),
  ),
  /** One-to-one when `hint` is given, one-to-N otherwise. Uses the server token: no interview needed. */
  authenticateFace: channel<AuthResultView>()(
    z
      .object({
        image: ImageSource.refine((s) => s.kind === 'file', 'Face authentication needs a photo file'),
        hint: z.string().trim().min(1).max(320).optional(),
        recordingId: OptionalId,
        faceCoordinates: FaceCoordinates.optional(),
      })
      .strict(),
  ),
  releaseStagedFile: channel<{ released: boolean }>()(z.object({ stagedFileId: z.uuid() }).strict()),
  importVideoStart: channel<ImportJobView>()(
    z.object({ interviewId: InterviewId, stagedFileId: z.uuid(), type: RecordingTypeSchema.optional() }).strict(),
  ),
  importVideoStatus: channel<ImportJobView>()(z.object({ jobId: z.uuid() }).strict()),
  importVideoCancel: channel<ImportJobView>()(z.object({ jobId: z.uuid() }).strict()),
};
