import { z } from 'zod';
import { HttpUrl, RecordingType } from './common';

export const ImportVideoBody = z.object({
  video: z.string().min(1),
  type: RecordingType.optional(),
});

export const ImportVideoResponse = z.looseObject({ recordingId: z.string().min(1) });
export type ImportVideoResponse = z.infer<typeof ImportVideoResponse>;

export const VideoSelfieUrlQuery = z.object({ interviewId: z.string().min(1).optional() });

/** Body not shown in the spec; decisions.md §7 fixes `{ url }`, valid one hour. */
export const VideoSelfieUrlResponse = z.looseObject({ url: HttpUrl });
export type VideoSelfieUrlResponse = z.infer<typeof VideoSelfieUrlResponse>;

/** The pre-signed video-selfie URL expires this long after issue. */
export const VIDEO_URL_TTL_MS = 60 * 60 * 1000;
