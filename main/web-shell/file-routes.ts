import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join } from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeWebReadableStream } from 'node:stream/web';
import type { MediaStore } from '../media/registry';
import { streamMedia } from '../media/stream';
import { contentTypeOf, resolveRendererPath } from '../renderer-files';
import { rendererCsp } from '../security-policy';
import type { DownloadStore } from './downloads';
import { asciiName, decodePathPart, forbidden, sendText } from './replies';
import { verifyPath } from './tokens';

const CSP = rendererCsp({ mediaSources: [] });

/** What the page loads: the built renderer, `/media/<id>` (Range, signed) and one-time `/download/<id>` (signed). */
export function fileRoutes(opts: {
  staticDir: string;
  media: MediaStore;
  downloads: DownloadStore;
  key: string;
  now: () => number;
  fetch?: typeof fetch;
}) {
  const { now } = opts;
  async function handleMedia(req: IncomingMessage, res: ServerResponse, url: URL) {
    const id = decodePathPart(url.pathname.slice('/media/'.length));
    if (id === undefined) return sendText(res, 400, 'Bad path');
    if (!verifyPath(opts.key, 'media', id, url.searchParams.get('exp'), url.searchParams.get('sig'), now()))
      return forbidden(res, false);
    const controller = new AbortController();
    res.on('close', () => controller.abort());
    const range = req.headers.range;
    const media = await streamMedia(
      opts.media,
      id,
      { range: range ?? null, method: req.method ?? 'GET', signal: controller.signal },
      opts.fetch,
    );
    res.writeHead(media.status, media.headers);
    if (!media.body) return void res.end();
    Readable.fromWeb(media.body as unknown as NodeWebReadableStream<Uint8Array>)
      .on('error', () => res.destroy())
      .pipe(res);
  }

  function handleDownload(res: ServerResponse, url: URL) {
    const id = decodePathPart(url.pathname.slice('/download/'.length));
    if (id === undefined) return sendText(res, 400, 'Bad path');
    if (!verifyPath(opts.key, 'download', id, url.searchParams.get('exp'), url.searchParams.get('sig'), now()))
      return forbidden(res, false);
    const file = opts.downloads.take(id);
    if (!file) return sendText(res, 410, 'This download link was already used or has expired.');
    res.writeHead(200, {
      'content-type': file.mimeType,
      'content-length': String(file.data.byteLength),
      'content-disposition': `attachment; filename="${asciiName(file.name)}"; filename*=UTF-8''${encodeURIComponent(file.name)}`,
      'cache-control': 'no-store',
    });
    res.end(Buffer.from(file.data.buffer, file.data.byteOffset, file.data.byteLength));
  }

  async function serveStatic(req: IncomingMessage, res: ServerResponse, pathname: string) {
    const resolved = resolveRendererPath(opts.staticDir, pathname);
    if (resolved === 'bad-path') return sendText(res, 400, 'Bad path');
    if (resolved === 'outside') return sendText(res, 404, 'Not found');
    const { relative } = resolved;
    let file = resolved.file;
    let info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) {
      // Routes live in the hash; any other unknown asset path is a real 404.
      if (relative !== '' && relative !== 'index.html' && extname(relative) !== '')
        return sendText(res, 404, 'Not found');
      file = join(opts.staticDir, 'index.html');
      info = await stat(file).catch(() => undefined);
      if (!info?.isFile()) return sendText(res, 500, 'The renderer is not built. Run: npm run build:renderer');
    }
    const isHtml = extname(file) === '.html';
    res.writeHead(200, {
      'content-type': contentTypeOf(file),
      'content-length': String(info.size),
      'cache-control': isHtml ? 'no-store' : 'public, max-age=31536000, immutable',
      ...(isHtml ? { 'content-security-policy': CSP } : {}),
    });
    if (req.method === 'HEAD') return void res.end();
    createReadStream(file)
      .on('error', () => res.destroy())
      .pipe(res);
  }

  return { media: handleMedia, download: handleDownload, static: serveStatic };
}
