import { readFile } from 'node:fs/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DemoDeps } from './context';
import { DemoHttpError, forbidden } from './errors';
import { loopWebm } from './webm';

export const VIDEO_SELFIE_FIXTURE = new URL('./fixtures/video-selfie.webm', import.meta.url);

let videoBytes: Promise<Buffer> | undefined;
export function videoSelfieBytes(): Promise<Buffer> {
  videoBytes ??= readFile(VIDEO_SELFIE_FIXTURE);
  return videoBytes;
}

/** Length of the long videocall recording (`demo-long-video`), in the clip's TimecodeScale units (ms). */
export const LONG_CALL_MS = 10 * 60_000;

/**
 * The 4-second clip repeated into a 10-minute recording with a SeekHead, Cues and the real Duration: a file
 * large enough that a player must seek by Range rather than read it whole. Built in memory (about 24 MB), once per
 * process: the same bytes every time, served read-only, and each demo server building its own cost 60 to 100 ms of
 * CPU and 24 MB to collect (a test's web shell starts one).
 */
let longCall: Promise<Uint8Array> | undefined;
export function longCallBytes(): Promise<Uint8Array> {
  if (!longCall) {
    const building = videoSelfieBytes().then((clip) => loopWebm(clip, LONG_CALL_MS).bytes);
    // A failed build is not kept: the next server tries again.
    building.catch(() => {
      if (longCall === building) longCall = undefined;
    });
    longCall = building;
  }
  return longCall;
}

/**
 * Answers a single `Range: bytes=…` request with 206 and Content-Range, the whole body otherwise; 416 when the
 * range lies outside the file. Multi-range requests are answered whole, which RFC 9110 allows.
 */
export function sendWithRange(
  request: FastifyRequest,
  reply: FastifyReply,
  bytes: Uint8Array,
  contentType: string,
): FastifyReply {
  const size = bytes.length;
  reply
    .header('accept-ranges', 'bytes')
    .header('content-type', contentType)
    .header('cache-control', 'private, no-store');
  const range = request.headers.range;
  const match = typeof range === 'string' ? /^bytes=(\d*)-(\d*)$/.exec(range.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) {
    return reply
      .code(200)
      .header('content-length', size)
      .send(asBuffer(bytes, 0, size));
  }
  let start: number;
  let end: number;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || start > end) {
    reply.header('content-range', `bytes */${size}`);
    throw new DemoHttpError(416, `Range ${range} is outside the file (${size} bytes).`);
  }
  return reply
    .code(206)
    .header('content-range', `bytes ${start}-${end}/${size}`)
    .header('content-length', end - start + 1)
    .send(asBuffer(bytes, start, end + 1));
}

/** A view, not a copy: a 24 MB recording is served many times. */
const asBuffer = (bytes: Uint8Array, start: number, end: number) =>
  Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start);

/** Files behind pre-signed URLs: they need no API headers, only a valid, unexpired signature. */
export function registerMediaRoutes(app: FastifyInstance, deps: DemoDeps): void {
  const verify = (request: FastifyRequest) => {
    const query = request.query as Record<string, unknown>;
    deps.signer.verify(request.url.split('?')[0] ?? '', query.expires, query.signature);
  };

  app.get<{ Params: { file: string } }>('/files/video-selfies/:file', async (request, reply) => {
    verify(request);
    const interviewId = request.params.file.replace(/\.webm$/, '');
    const interview = deps.state.interviews.get(interviewId);
    if (!interview?.videoSelfie)
      throw forbidden('This link does not point to a video selfie any more. Ask the service for a new temporary link.');
    const bytes = interview.videoSelfie === 'long-call' ? await deps.longCallVideo() : await videoSelfieBytes();
    return sendWithRange(request, reply, bytes, 'video/webm');
  });

  app.get<{ Params: { file: string } }>('/files/contracts/:file', async (request, reply) => {
    verify(request);
    const documentId = request.params.file.replace(/\.pdf$/, '');
    const interview = [...deps.state.interviews.values()].find((i) =>
      i.contracts.some((c) => c.documentId === documentId),
    );
    if (!interview)
      throw forbidden('This link does not point to a contract any more. Ask the service for new contract links.');
    reply.header('content-disposition', `inline; filename="${documentId}.pdf"`);
    return sendWithRange(request, reply, await deps.contractPdf(interview, documentId), 'application/pdf');
  });
}
