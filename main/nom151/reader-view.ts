import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { AnnotationMode, getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/**
 * The pages of a PDF as pdf.js draws them: for each page its boxes, rotation and every drawing instruction (annotations'
 * appearances included), hashed; and which optional content is shown. The page comparison in pdf.ts reads the file
 * with pdf-lib, whose parser and readers' have parted more than once (red teams 8, 9, 13, 14: a definition, a
 * trailer, a name escape that pdf-lib read one way and pdf.js and MuPDF another, and a forged page shown while Verify
 * said valid). Asking a reader itself closes the class for every reader built on pdf.js (Firefox, most web viewers)
 * and makes a forgery fool two parsers at once.
 */
export interface ReaderView {
  pages: string[];
  optionalContent: string;
}

/** pdf.js reads the standard fonts' data from its package (a path in Node). */
const standardFontDataUrl =
  join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts') + '/';

export async function readerView(bytes: Uint8Array): Promise<ReaderView> {
  const pdf = await getDocument({
    // pdf.js takes the buffer it is given: a copy, so the caller's bytes stay whole.
    data: new Uint8Array(bytes),
    useWorkerFetch: false,
    isEvalSupported: false,
    disableFontFace: true,
    standardFontDataUrl,
    verbosity: 0,
    // No image is decoded: the drawing names an image by its place, never by its object or data (pdf-lib compares
    // those), and an image's pixels were one more thing to decode outside the heap limit.
    maxImageSize: 1,
  }).promise;
  try {
    const pages: string[] = [];
    for (let number = 1; number <= pdf.numPages; number++) {
      const page = await pdf.getPage(number);
      const { fnArray, argsArray } = await page.getOperatorList({ annotationMode: AnnotationMode.ENABLE });
      pages.push(digestOf([page.view, page.rotate, page.userUnit, fnArray, argsArray]));
      page.cleanup();
    }
    const config = await pdf.getOptionalContentConfig();
    const groups = [...config].map(([, group]: [unknown, { name?: unknown; visible?: unknown }]) =>
      JSON.stringify([group.name, group.visible]),
    );
    return { pages, optionalContent: groups.sort().join('\n') };
  } finally {
    await pdf.destroy();
  }
}

/**
 * The SHA-256 of a drawing's values, walked in order (JSON.stringify of a 40-line page's instructions was 80% of the
 * comparison's time). A font's name in a drawing names its document (g_d0_f1, g_d1_f1): the same font in two
 * documents, so that part is left out.
 */
function digestOf(value: unknown): string {
  const hash = createHash('sha256');
  let text = '';
  const flush = () => {
    hash.update(text);
    text = '';
  };
  const walk = (v: unknown): void => {
    if (text.length > 65_536) flush();
    if (typeof v === 'string') text += `s${v.length}:${v.replace(/g_d\d+_/g, 'g_')}`;
    else if (typeof v === 'number' || typeof v === 'boolean' || v === null || v === undefined) text += `${String(v)},`;
    else if (ArrayBuffer.isView(v)) {
      text += `b${v.constructor.name}${v.byteLength}:`;
      flush();
      hash.update(new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
    } else if (Array.isArray(v)) {
      text += `[${v.length}:`;
      for (const item of v) walk(item);
    } else if (typeof v === 'object') {
      const keys = Object.keys(v);
      text += `{${keys.length}:`;
      for (const key of keys) {
        text += `${key}=`;
        walk((v as Record<string, unknown>)[key]);
      }
    }
  };
  walk(value);
  flush();
  return hash.digest('hex');
}

/** Whether pdf.js draws the two files' pages alike, page by page. A file pdf.js cannot read is not alike. */
export async function readersShowAlike(sealed: Uint8Array, original: Uint8Array): Promise<boolean> {
  try {
    const [a, b] = [await readerView(sealed), await readerView(original)];
    return (
      a.pages.length === b.pages.length &&
      a.pages.every((page, i) => page === b.pages[i]) &&
      a.optionalContent === b.optionalContent
    );
  } catch {
    return false;
  }
}
