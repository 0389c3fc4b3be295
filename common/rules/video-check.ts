/**
 * Recognises a recording by its first bytes (WebM/Matroska or an ISO-BMFF file such as MP4/MOV), so a wrong file
 * is refused before a long upload. Pure: the renderer checks the picked file, main checks the staged copy.
 */
export type VideoKind = 'webm' | 'mp4';

export function sniffVideo(head: Uint8Array): VideoKind | undefined {
  if (head.length >= 4 && head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3) return 'webm';
  if (head.length >= 8 && String.fromCharCode(head[4]!, head[5]!, head[6]!, head[7]!) === 'ftyp') return 'mp4';
  return undefined;
}

export const NOT_A_VIDEO = {
  en: 'This file is not a WebM or MP4 recording (its first bytes match neither). Choose the recorded video file.',
  es: 'Este archivo no es una grabación WebM o MP4 (sus primeros bytes no coinciden con ninguno). Elige el archivo de video grabado.',
};
