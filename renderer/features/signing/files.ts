/** Reading user-chosen files in the renderer: bytes cross IPC as base64 (the web shell speaks JSON). */
import type { IpcErrorData } from '../../../common/ipc/define';

export interface LoadedFile {
  name: string;
  size: number;
  base64: string;
}

export async function readFileBase64(file: File): Promise<LoadedFile> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  return { name: file.name, size: file.size, base64: bytesToBase64(bytes) };
}

/** A chosen file the browser could not read (moved, deleted, no permission): said where it was chosen. */
export function fileReadError(name: string): IpcErrorData {
  return {
    code: 'FILE_READ',
    message: { en: `The file ${name} could not be read.`, es: `No se pudo leer el archivo ${name}.` },
    advice: {
      en: 'Check that it still exists and that you can open it, then choose it again.',
      es: 'Verifica que aún exista y que puedas abrirlo, y vuelve a elegirlo.',
    },
  };
}

export function bytesToBase64(bytes: Uint8Array): string {
  // btoa takes a binary string; build it in slices so large files do not overflow the argument list.
  let binary = '';
  const slice = 0x8000;
  for (let i = 0; i < bytes.length; i += slice) binary += String.fromCharCode(...bytes.subarray(i, i + slice));
  return btoa(binary);
}

export function textToBase64(text: string): string {
  return bytesToBase64(new TextEncoder().encode(text));
}

/** Follows a one-time download URL from the web shell; Electron saves through its own dialog instead. */
export function startDownload(url: string, fileName: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
}
