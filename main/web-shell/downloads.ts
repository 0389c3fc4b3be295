import { randomBytes } from 'node:crypto';
import type { FileService } from '../ports';
import { signPath } from './tokens';

/**
 * Web-shell FileService: the browser saves files itself, so `save` parks the bytes under a one-time, short-lived
 * signed link that the renderer follows (`<a href download>`).
 */
export interface ParkedFile {
  name: string;
  mimeType: string;
  data: Uint8Array;
  expiresAt: number;
}

export interface DownloadStore {
  take(id: string): ParkedFile | undefined;
}

const LINK_TTL_MS = 10 * 60 * 1000;
const MAX_PARKED = 50;
/** Bytes parked together: the largest exports are tens of MB, so 50 of them would hold gigabytes for 10 minutes. */
const MAX_PARKED_BYTES = 256 * 1024 * 1024;

export function createWebFiles(
  key: string,
  now: () => number = Date.now,
  limits: { maxParkedBytes?: number } = {},
): FileService & DownloadStore {
  const maxBytes = limits.maxParkedBytes ?? MAX_PARKED_BYTES;
  const parked = new Map<string, ParkedFile>();
  let parkedBytes = 0;
  const drop = (id: string) => {
    const file = parked.get(id);
    if (!file) return;
    parked.delete(id);
    parkedBytes -= file.data.byteLength;
  };
  // The oldest go first; the newest file stays even alone over the cap (its link was just handed out).
  const sweep = () => {
    for (const [id, file] of parked) if (file.expiresAt < now()) drop(id);
    while (parked.size > MAX_PARKED || (parked.size > 1 && parkedBytes > maxBytes))
      drop(parked.keys().next().value as string);
  };
  return {
    async save({ suggestedName, data, mimeType }) {
      const id = randomBytes(18).toString('base64url');
      const expiresAt = now() + LINK_TTL_MS;
      parked.set(id, { name: suggestedName, mimeType, data, expiresAt });
      parkedBytes += data.byteLength;
      sweep();
      return { downloadUrl: signPath(key, 'download', id, expiresAt) };
    },
    take(id) {
      const file = parked.get(id);
      drop(id);
      return file && file.expiresAt >= now() ? file : undefined;
    },
  };
}
