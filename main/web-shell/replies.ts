import type { IncomingMessage, ServerResponse } from 'node:http';
import type { IpcErrorData, IpcResult } from '../../common/ipc/define';

/** The host's plain answers: typed IPC failures, text and JSON replies, headers every answer carries, body reading. */

export function securityHeaders(res: ServerResponse) {
  res.setHeader('x-content-type-options', 'nosniff');
  res.setHeader('referrer-policy', 'no-referrer');
  res.setHeader('x-frame-options', 'DENY');
  res.setHeader('cross-origin-opener-policy', 'same-origin');
  res.setHeader('cross-origin-resource-policy', 'same-origin');
  // Only features Chromium knows: an unknown one ('bluetooth') makes it log a warning on every page load.
  res.setHeader(
    'permissions-policy',
    'camera=(), microphone=(), geolocation=(), usb=(), serial=(), hid=(), payment=()',
  );
}

export function failure(code: string, en: string, es: string): IpcResult<never> {
  const error: IpcErrorData = { code, message: { en, es }, retryable: false };
  return { ok: false, error };
}

/**
 * An answer as JSON; one that JSON cannot write (nested past its stack) becomes a failure of its own call, not of the
 * batch it came in (red team 17: one such answer failed every call sent with it, and the whole workspace said the main
 * process could not be reached).
 */
export function answerJson(body: unknown): string {
  try {
    return JSON.stringify(body);
  } catch {
    return JSON.stringify(
      failure(
        'INTERNAL',
        'The answer could not be sent to the window.',
        'La respuesta no se pudo enviar a la ventana.',
      ),
    );
  }
}

export function forbidden(res: ServerResponse, json: boolean) {
  if (json) {
    return sendJson(
      res,
      403,
      failure(
        'FORBIDDEN',
        'This request was refused: it did not come from this app’s page.',
        'Esta solicitud fue rechazada: no provino de la página de esta aplicación.',
      ),
    );
  }
  return sendText(res, 403, 'Forbidden');
}

export function sendJson(res: ServerResponse, status: number, body: unknown) {
  const text = answerJson(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
  });
  res.end(text);
}

export function sendText(res: ServerResponse, status: number, text: string) {
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
  });
  res.end(text);
}

export function parseRequestUrl(path: string | undefined, origin: string): URL | undefined {
  try {
    return new URL(path ?? '/', origin);
  } catch {
    return undefined;
  }
}

/** undefined when the path part holds a malformed `%` escape: the client's mistake (400), not the host's (500). */
export function decodePathPart(part: string): string | undefined {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}

/**
 * The body as text, or undefined when it is over the limit. Past the limit the rest is read and dropped, so the client
 * gets the 413 rather than a connection reset while it is still sending; a body far past it is cut off.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    let chunks: Buffer[] | undefined = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) chunks = undefined;
      if (size > limit * 4) req.destroy();
      chunks?.push(chunk);
    });
    req.on('end', () => resolve(chunks && Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export function asciiName(name: string): string {
  return name.replace(/[^\x20-\x7e]|["\\]/g, '_');
}

/**
 * Writes and sends at once. Node holds what a response writes until the next tick (it corks the socket), and that
 * tick waits for every promise continuation already queued: while the other calls of a batch are busy, a finished
 * answer sat there for milliseconds. Flushing it here lets the page take each answer the moment it is ready.
 */
export function writeNow(res: ServerResponse, text: string) {
  res.write(text);
  res.socket?.uncork();
}
