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

export function createWebFiles(key: string, now: () => number = Date.now): FileService & DownloadStore {
  const parked = new Map<string, ParkedFile>();
  const sweep = () => {
    for (const [id, file] of parked) if (file.expiresAt < now()) parked.delete(id);
    while (parked.size > MAX_PARKED) parked.delete(parked.keys().next().value as string);
  };
  return {
    async save({ suggestedName, data, mimeType }) {
      sweep();
      const id = randomBytes(18).toString('base64url');
      const expiresAt = now() + LINK_TTL_MS;
      parked.set(id, { name: suggestedName, mimeType, data, expiresAt });
      return { downloadUrl: signPath(key, 'download', id, expiresAt) };
    },
    take(id) {
      const file = parked.get(id);
      parked.delete(id);
      return file && file.expiresAt >= now() ? file : undefined;
    },
  };
}
