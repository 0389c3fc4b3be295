import type { IncomingMessage, ServerResponse } from 'node:http';
import type { IpcErrorData, IpcResult } from '../../common/ipc/define';
import { STAGING_NAME_HEADER, type StagedFileView } from '../../common/ipc/capture';
import { StagingLimitError, StagingTooLargeError } from '../errors';
import { MAX_STAGED_BYTES, StagingStalledError, type StagedFiles } from './staging';

/**
 * The web shell's staging route: the page PUTs a picked file's raw bytes (the browser streams them from disk) and
 * main writes them to a temp file chunk by chunk. The answer is an IpcResult, like every IPC call. The caller
 * (main/web-shell/host.ts) has already checked the origin and the per-launch key.
 */
export async function handleStagingUpload(
  req: IncomingMessage,
  res: ServerResponse,
  staged: StagedFiles,
  opts: { idleMs?: number } = {},
): Promise<void> {
  if (req.method !== 'PUT')
    return send(
      res,
      405,
      fail('METHOD_NOT_ALLOWED', { en: 'Files are staged with PUT.', es: 'Los archivos se cargan con PUT.' }),
    );
  // A file said to be over the limit is refused before a byte of it is written.
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > MAX_STAGED_BYTES) return tooLarge(res, MAX_STAGED_BYTES);
  const rawName = req.headers[STAGING_NAME_HEADER];
  let name = 'file';
  try {
    if (typeof rawName === 'string') name = decodeURIComponent(rawName);
  } catch {
    // A malformed name is only cosmetic: keep the default.
  }
  const controller = new AbortController();
  // The page went away or cancelled: stop writing and delete the partial file.
  req.on('close', () => {
    if (!req.complete) controller.abort();
  });
  try {
    const file = await staged.receive(req, {
      name,
      signal: controller.signal,
      ...(opts.idleMs !== undefined ? { idleMs: opts.idleMs } : {}),
    });
    const view: StagedFileView = { stagedFileId: file.id, name: file.name, size: file.size };
    send(res, 200, { ok: true, data: view });
  } catch (error) {
    if (error instanceof StagingTooLargeError) return tooLarge(res, error.limit);
    if (error instanceof StagingStalledError) {
      res.setHeader('connection', 'close');
      return send(
        res,
        408,
        fail(
          'STAGING_STALLED',
          {
            en: `The file stopped arriving: nothing came for ${Math.round(error.idleMs / 1000)} seconds.`,
            es: `El archivo dejó de llegar: no llegó nada en ${Math.round(error.idleMs / 1000)} segundos.`,
          },
          true,
        ),
      );
    }
    if (error instanceof StagingLimitError) {
      const [en, es] =
        error.what === 'files'
          ? [
              `The app already holds ${error.limit} files waiting to be imported in this session, the most it keeps.`,
              `La aplicación ya guarda ${error.limit} archivos en espera de importarse en esta sesión, lo máximo que conserva.`,
            ]
          : [
              `The files waiting to be imported in this session would pass ${(error.limit / 1024 ** 3).toFixed(0)} GB together, the most the app keeps.`,
              `Los archivos en espera de importarse en esta sesión pasarían de ${(error.limit / 1024 ** 3).toFixed(0)} GB juntos, lo máximo que conserva la aplicación.`,
            ];
      return send(res, 413, {
        ok: false,
        error: {
          code: 'STAGING_LIMIT',
          message: { en, es },
          advice: {
            en: 'Import or remove the files already chosen, then choose this one again.',
            es: 'Importa o quita los archivos ya elegidos y vuelve a elegir este.',
          },
          retryable: false,
          details: { limit: error.what, max: error.limit },
        },
      });
    }
    if (!res.writableEnded && !req.destroyed) {
      send(
        res,
        500,
        fail(
          'STAGING_FAILED',
          { en: 'The file could not be copied to the app.', es: 'No se pudo copiar el archivo a la aplicación.' },
          true,
        ),
      );
    }
  }
}

function tooLarge(res: ServerResponse, limit: number): void {
  const gb = (limit / 1024 ** 3).toFixed(0);
  send(
    res,
    413,
    fail('FILE_TOO_LARGE', {
      en: `The file is larger than ${gb} GB, the most the app accepts.`,
      es: `El archivo pesa más de ${gb} GB, lo máximo que acepta la aplicación.`,
    }),
  );
}

function fail(code: string, message: IpcErrorData['message'], retryable = false): IpcResult<never> {
  return {
    ok: false,
    error: { code, message, advice: { en: 'Choose the file again.', es: 'Elige el archivo de nuevo.' }, retryable },
  };
}

function send(res: ServerResponse, status: number, body: IpcResult<unknown>): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
  });
  res.end(text);
}
