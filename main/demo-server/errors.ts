import { STATUS_CODES } from 'node:http';
import type { z } from 'zod';
import type { ErrorBody } from '../../common/omni';

/**
 * A refusal the demo server answers with the spec's error body. `httpStatus` is the HTTP code; `status` is the
 * body's code, which differs only for the face-upload custom statuses (4010, 4019, 4077, 4078 travel on a 400).
 */
export class DemoHttpError extends Error {
  constructor(
    readonly httpStatus: number,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly status: number = httpStatus,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'DemoHttpError';
  }
}

export function errorBody(
  httpStatus: number,
  status: number,
  message: string,
  path: string,
  timestamp: number,
  details?: Record<string, unknown>,
): z.input<typeof ErrorBody> {
  return {
    timestamp,
    status,
    error: STATUS_CODES[httpStatus] ?? 'Error',
    message,
    path,
    ...(details ? { details } : {}),
  };
}

export const badRequest = (message: string, details?: Record<string, unknown>) =>
  new DemoHttpError(400, message, details);
export const unauthorized = (message: string, details?: Record<string, unknown>) =>
  new DemoHttpError(401, message, details);
export const forbidden = (message: string) => new DemoHttpError(403, message);
