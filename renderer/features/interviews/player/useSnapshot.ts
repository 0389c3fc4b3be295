import type { RefObject } from 'react';
import { keys, useOmniMutation } from '../../../api/index';
import { followSaved, toBase64 } from '../shared';
import { clock } from './clock';

/** The frame in view saved as a PNG, named after the interview and the position; the save is audited by main. */
export function useSnapshot(
  interviewId: string,
  video: RefObject<HTMLVideoElement | null>,
  lastTime: RefObject<number>,
) {
  const save = useOmniMutation(
    (api, png: Uint8Array) =>
      api.interview.saveFile({
        interviewId,
        what: 'snapshot',
        suggestedName: `snapshot-${interviewId}-${clock(lastTime.current).replace(/[:.]/g, '-')}.png`,
        mimeType: 'image/png',
        dataBase64: toBase64(png),
      }),
    { invalidate: [keys.interview.audit(interviewId)], onSuccess: (saved) => followSaved(saved) },
  );
  const take = async () => {
    const v = video.current;
    if (!v || !v.videoWidth) return;
    const canvas = document.createElement('canvas');
    canvas.width = v.videoWidth;
    canvas.height = v.videoHeight;
    canvas.getContext('2d')?.drawImage(v, 0, 0);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
    if (blob) save.mutate(new Uint8Array(await blob.arrayBuffer()));
  };
  return { save, take };
}
