export function electronBinary():
  | { path: string; reason?: undefined; downloadable?: undefined }
  | { path?: undefined; reason: string; downloadable?: boolean };
/** Why the download failed, in one line; undefined when the binary is now there. */
export function downloadElectronBinary(): string | undefined;
export function missingTools(): string[];
