/**
 * Text from outside (a file's name, a name inside an archive) as the app shows or keeps it: without control characters
 * and without the direction marks and overrides that make it read as another (U+202E before `piz.exe` shows `exe.zip`).
 */
// eslint-disable-next-line no-control-regex -- stripping control characters is the point
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function plainText(text: string, maxLength: number): string {
  const plain = text.replace(HIDDEN, '');
  return plain.length > maxLength ? `${plain.slice(0, maxLength - 1)}…` : plain;
}
