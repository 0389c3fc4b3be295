import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BatchedCall } from '../../common/ipc/define';
import { SHELL_KEY_HEADER } from '../../common/web-shell';
import type { Router } from '../ipc/router';
import { answerJson, decodePathPart, failure, forbidden, readBody, sendJson, writeNow } from './replies';
import { sameSecret } from './tokens';

const MAX_BATCH_CALLS = 64;

/**
 * `/ipc/<channel>` and the batch route: the page's calls into the same router as Electron's ipcMain, each after the
 * key and Origin checks, as JSON of bounded size.
 */
export function ipcRoutes(opts: { router: Router; key: string; maxBodyBytes: number; origin: () => string }) {
  const { maxBodyBytes: maxIpcBodyBytes } = opts;
  /** The checks every IPC request passes, then its JSON body; undefined when an error was already sent. */
  async function readIpcRequest(req: IncomingMessage, res: ServerResponse): Promise<{ input: unknown } | undefined> {
    const key = req.headers[SHELL_KEY_HEADER];
    // Calls come from fetch in our page, which always sends Origin on POST; a request without one is not ours.
    if (req.headers.origin !== opts.origin() || !sameSecret(typeof key === 'string' ? key : undefined, opts.key))
      return void forbidden(res, true);
    if (req.method !== 'POST')
      return void sendJson(
        res,
        405,
        failure('METHOD_NOT_ALLOWED', 'IPC calls must use POST.', 'Las llamadas IPC deben usar POST.'),
      );
    const mediaType = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (mediaType !== 'application/json') {
      return void sendJson(
        res,
        415,
        failure('UNSUPPORTED_MEDIA_TYPE', 'IPC calls must send JSON.', 'Las llamadas IPC deben enviar JSON.'),
      );
    }
    const raw = await readBody(req, maxIpcBodyBytes);
    if (raw === undefined) {
      return void sendJson(
        res,
        413,
        failure(
          'PAYLOAD_TOO_LARGE',
          `The request is larger than ${Math.round(maxIpcBodyBytes / 1024 / 1024)} MB.`,
          `La solicitud ocupa más de ${Math.round(maxIpcBodyBytes / 1024 / 1024)} MB.`,
        ),
      );
    }
    try {
      return { input: raw === '' ? {} : JSON.parse(raw) };
    } catch {
      return void sendJson(
        res,
        400,
        failure('INVALID_INPUT', 'The request body is not valid JSON.', 'El cuerpo de la solicitud no es JSON válido.'),
      );
    }
  }

  async function handleIpc(req: IncomingMessage, res: ServerResponse, encodedChannel: string) {
    const request = await readIpcRequest(req, res);
    if (!request) return;
    const channel = decodePathPart(encodedChannel);
    if (channel === undefined)
      return sendJson(
        res,
        400,
        failure(
          'INVALID_INPUT',
          'The channel name in the address is not valid.',
          'El nombre del canal en la dirección no es válido.',
        ),
      );
    sendJson(res, 200, await opts.router.handle(channel, request.input, { url: opts.origin(), isMainFrame: true }));
  }

  /**
   * Calls the page made in the same tick, in one request: each runs as it would alone, all at once, and its answer
   * is written as one line (`BatchedAnswer`) the moment it is ready, so a slow call never holds back
   * the others. One request instead of one per call spares the browser, the page and this host a round of HTTP
   * work per call; opening an interview makes six.
   */
  async function handleIpcBatch(req: IncomingMessage, res: ServerResponse) {
    const request = await readIpcRequest(req, res);
    if (!request) return;
    const calls = request.input;
    if (!Array.isArray(calls) || calls.length === 0 || calls.length > MAX_BATCH_CALLS || !calls.every(isBatchedCall)) {
      return sendJson(
        res,
        400,
        failure(
          'INVALID_INPUT',
          `A batch is a list of 1 to ${MAX_BATCH_CALLS} calls, each with a channel.`,
          `Un lote es una lista de 1 a ${MAX_BATCH_CALLS} llamadas, cada una con su canal.`,
        ),
      );
    }
    res.writeHead(200, { 'content-type': 'application/x-ndjson; charset=utf-8', 'cache-control': 'no-store' });
    await Promise.all(
      calls.map(async (call, i) => {
        const result = await opts.router.handle(call.channel, call.input ?? {}, {
          url: opts.origin(),
          isMainFrame: true,
        });
        // A BatchedAnswer, its result written on its own so that one that cannot be written fails alone.
        const line = `{"i":${i},"result":${answerJson(result)}}\n`;
        // The page may be gone (reload, closed tab); the call itself has run either way.
        if (!res.destroyed) writeNow(res, line);
      }),
    );
    if (!res.destroyed) res.end();
  }

  return { single: handleIpc, batch: handleIpcBatch };
}

function isBatchedCall(call: unknown): call is BatchedCall {
  return typeof call === 'object' && call !== null && typeof (call as Partial<BatchedCall>).channel === 'string';
}
