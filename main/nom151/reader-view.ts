import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { AnnotationMode, getDocument, PDFWorker } from 'pdfjs-dist/legacy/build/pdf.mjs';

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

const require = createRequire(import.meta.url);
/** pdf.js reads the standard fonts' data from its package (a path in Node). */
const standardFontDataUrl = join(dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts') + '/';

/** A PDF whose streams decode past what one verification may hold: reported as too complex, not as different. */
export class PdfTooComplex extends Error {}

/** What pdf.js may decode of one file: a stream, and all of them. */
const MAX_STREAM_BYTES = 32 * 1024 * 1024;
const MAX_FILE_BYTES = 128 * 1024 * 1024;
const decoded = { bytes: 0, refused: false };

/**
 * pdf.js's decoders, each grown through one method (DecodeStream.ensureBuffer: Flate, LZW, ASCII85, run length,
 * predictors, CCITT), measured as they grow: pdf.js decodes into ArrayBuffers the verifier thread's heap limit does not
 * count (red team 15: a 1 MB page content inflating to 1 GB took the app to 2.9 GB and was called valid). Measuring
 * beforehand with pdf-lib guessed which streams pdf.js decodes, and how, wrongly three ways (red team 16: a drawn stream
 * labelled an image, `/F` for `/Filter`, an original defining an object twice). So pdf.js's worker code is loaded a
 * second time, with that method calling `omniPdfJsGrow` before it allocates (past the caps it throws, and the file is
 * too complex whatever pdf.js made of the error), and each reading talks to it through a port of its own: pdf.js's
 * own in-thread worker is whichever one was set up first in the thread.
 */
let measuredWorker: Promise<{ initializeFromPort(port: Loopback): void }> | undefined;
function measuredPdfJs() {
  return (measuredWorker ??= (async () => {
    (globalThis as { omniPdfJsGrow?: (had: number, size: number) => void }).omniPdfJsGrow = (had, size) => {
      if (size > MAX_STREAM_BYTES || decoded.bytes + size - had > MAX_FILE_BYTES) {
        decoded.refused = true;
        throw new PdfTooComplex('a stream decodes past the limit');
      }
      decoded.bytes += size - had;
    };
    let measured = await readFile(require.resolve('pdfjs-dist/legacy/build/pdf.worker.mjs'), 'utf8');
    // Where a decoder grows its buffer, and where Flate is inflated by the platform's DecompressionStream, chunk by
    // chunk: each once in pdf.js's worker code (a new pdf.js without them is refused here, not trusted unmeasured).
    for (const [at, measure] of [
      ['    const buffer2 = new Uint8Array(size);', '    globalThis.omniPdfJsGrow(buffer.byteLength, size);'],
      [
        '        totalLength += chunk.byteLength;',
        '        globalThis.omniPdfJsGrow(totalLength, totalLength + chunk.byteLength);',
      ],
    ] as const) {
      if (measured.split(at).length !== 2) throw new Error('pdf.js changed: its decoders can no longer be measured');
      measured = measured.replace(at, `${measure}\n${at}`);
    }
    const worker = (await import(`data:text/javascript;base64,${Buffer.from(measured).toString('base64')}`)) as {
      WorkerMessageHandler: { initializeFromPort(port: Loopback): void };
    };
    return worker.WorkerMessageHandler;
  })());
}

/** Both ends of a reading's talk with the measured worker, in this thread (as pdf.js's LoopbackPort). */
class Loopback {
  private readonly listeners = new Set<(event: { data: unknown }) => void>();
  postMessage(data: unknown, transfer?: Transferable[]) {
    const event = { data: structuredClone(data, transfer ? { transfer } : undefined) };
    void Promise.resolve().then(() => {
      for (const listener of [...this.listeners]) listener.call(this, event);
    });
  }
  addEventListener(_: string, listener: (event: { data: unknown }) => void) {
    this.listeners.add(listener);
  }
  removeEventListener(_: string, listener: (event: { data: unknown }) => void) {
    this.listeners.delete(listener);
  }
  terminate() {
    this.listeners.clear();
  }
}

export async function readerView(bytes: Uint8Array): Promise<ReaderView> {
  const handler = await measuredPdfJs();
  [decoded.bytes, decoded.refused] = [0, false];
  const port = new Loopback();
  handler.initializeFromPort(port);
  // pdf.js types `port` as nothing, but takes any object that posts and listens (its own LoopbackPort is one).
  const worker = new PDFWorker({ port: port as unknown as null });
  try {
    // Past the caps the file is too complex, whether pdf.js passed the error on or went on without the stream.
    const view = await drawn(bytes, worker).catch((error: unknown) => {
      if (!decoded.refused) throw error;
    });
    if (decoded.refused || !view) throw new PdfTooComplex('a stream decodes past the limit');
    return view;
  } finally {
    worker.destroy();
  }
}

async function drawn(bytes: Uint8Array, worker: PDFWorker): Promise<ReaderView> {
  const pdf = await getDocument({
    worker,
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
    if (typeof v === 'string') {
      // Its length as it is hashed: g_d10_f1 is g_d0_f1 in the tenth document read by this thread.
      const same = v.replace(/g_d\d+_/g, 'g_');
      text += `s${same.length}:${same}`;
    } else if (typeof v === 'number' || typeof v === 'boolean' || v === null || v === undefined)
      text += `${String(v)},`;
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

/**
 * Whether pdf.js draws the two files' pages alike, page by page. A file pdf.js cannot read is not alike; one that
 * decodes past the limits throws PdfTooComplex.
 */
export async function readersShowAlike(sealed: Uint8Array, original: Uint8Array): Promise<boolean> {
  try {
    const [a, b] = [await readerView(sealed), await readerView(original)];
    return (
      a.pages.length === b.pages.length &&
      a.pages.every((page, i) => page === b.pages[i]) &&
      a.optionalContent === b.optionalContent
    );
  } catch (error) {
    if (error instanceof PdfTooComplex) throw error;
    return false;
  }
}
