import type { z } from 'zod';
import type { IpcErrorData } from '../../common/ipc/define';
import { redact } from '../log';
import { decodedWords } from './answer-text';
import { explain, type ClientErrorCode, type Explanation } from './catalog';
import type { ErrorBody } from '../../common/omni';
import type { EndpointName } from './endpoints';

export type OmniErrorKind = 'http' | 'network' | 'timeout' | 'aborted' | 'schema' | 'config' | 'input';

export interface FieldIssue {
  /** Dotted path of the field, e.g. `body.faceCoordinates.leftEyeX` or `checkResults.0.severity`. */
  path: string;
  message: string;
}

export interface OmniErrorInit {
  kind: OmniErrorKind;
  code: string;
  explanation: Explanation;
  endpoint?: EndpointName;
  httpStatus?: number;
  serviceStatus?: number | string;
  body?: ErrorBody;
  /** The parsed JSON of an error response that is not the standard error body (e.g. a CURP failure). */
  data?: unknown;
  issues?: FieldIssue[];
  retryAfterMs?: number;
  /** What an answer that is not the service's JSON said (a proxy page's title and text), shortened. */
  serviceWords?: string;
  cause?: unknown;
}

const KIND_CODE: Record<Exclude<OmniErrorKind, 'config'>, string> = {
  http: 'OMNI_HTTP',
  network: 'NETWORK',
  timeout: 'TIMEOUT',
  aborted: 'ABORTED',
  schema: 'SCHEMA_MISMATCH',
  input: 'INVALID_INPUT',
};

/** Every failure of a call to the service, typed by kind, with the catalog's explanation attached. */
export class OmniError extends Error {
  readonly kind: OmniErrorKind;
  /** Stable machine code (IpcErrorData.code). */
  readonly code: string;
  readonly explanation: Explanation;
  readonly endpoint?: EndpointName;
  readonly httpStatus?: number;
  /** The service's custom `status` (e.g. 4019) or the catalog code of a body-level failure (e.g. `01-06`). */
  readonly serviceStatus?: number | string;
  readonly body?: ErrorBody;
  readonly data?: unknown;
  readonly issues?: FieldIssue[];
  readonly retryAfterMs?: number;
  readonly serviceWords?: string;

  constructor(init: OmniErrorInit) {
    super(describe(init), init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'OmniError';
    this.kind = init.kind;
    this.code = init.code;
    this.explanation = init.explanation;
    if (init.endpoint !== undefined) this.endpoint = init.endpoint;
    if (init.httpStatus !== undefined) this.httpStatus = init.httpStatus;
    if (init.serviceStatus !== undefined) this.serviceStatus = init.serviceStatus;
    if (init.body !== undefined) this.body = init.body;
    if (init.data !== undefined) this.data = init.data;
    if (init.issues !== undefined) this.issues = init.issues;
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
    if (init.serviceWords !== undefined) this.serviceWords = init.serviceWords;
  }

  get retryable(): boolean {
    return this.explanation.retryable;
  }

  /** Bilingual, secret-free data for the renderer. */
  toIpcError(): IpcErrorData {
    const e = this.explanation;
    const where = this.issues?.length ? this.issues.map((i) => i.path).join(', ') : undefined;
    const suffix =
      this.kind === 'schema' && where
        ? { en: ` (${this.endpoint}: ${where})`, es: ` (${this.endpoint}: ${where})` }
        : this.kind === 'input' && where
          ? { en: ` Fields: ${where}.`, es: ` Campos: ${where}.` }
          : { en: '', es: '' };
    const data: IpcErrorData = {
      code: this.code,
      message: { en: e.en + suffix.en, es: e.es + suffix.es },
      advice: { en: e.adviceEn, es: e.adviceEs },
      retryable: e.retryable,
    };
    if (this.httpStatus !== undefined) data.httpStatus = this.httpStatus;
    const serviceCode = this.serviceStatus ?? (e.code.startsWith('HTTP_') || e.code === this.code ? undefined : e.code);
    if (serviceCode !== undefined) data.serviceCode = String(serviceCode);
    if (this.issues?.length) data.issues = this.issues;
    const details: Record<string, unknown> = {};
    if (this.endpoint) details.endpoint = this.endpoint;
    if (e.group !== undefined) details.group = e.group;
    if (this.retryAfterMs !== undefined) details.retryAfterMs = this.retryAfterMs;
    const words = this.body?.message ? decodedWords(this.body.message) : this.serviceWords;
    if (words) details.serviceMessage = bounded(words, SERVICE_WORDS_SHOWN);
    if (this.body?.path) details.servicePath = bounded(this.body.path, SERVICE_WORDS_SHOWN);
    if (this.body?.details) {
      // Shown in small print: a few kilobytes at most (a 20 MB one went over IPC whole).
      const text = JSON.stringify(this.body.details);
      details.serviceDetails =
        text.length <= SERVICE_DETAILS_SHOWN ? this.body.details : { omitted: `${text.length} characters` };
    }
    if (Object.keys(details).length) data.details = details;
    return redact(data);
  }

  /** console.log / util.inspect show the redacted form too. */
  [Symbol.for('nodejs.util.inspect.custom')](): unknown {
    return this.toJSON();
  }

  /** JSON.stringify(error) goes through the same redaction as IPC. */
  toJSON(): unknown {
    const { code: _code, message: _message, ...rest } = this.toIpcError();
    return redact({ name: this.name, kind: this.kind, code: this.code, message: this.message, ...rest });
  }
}

/** How much of the service's own words an error carries: a sentence or two, not a 5 MB page of them. */
const SERVICE_WORDS_SHOWN = 500;
const SERVICE_DETAILS_SHOWN = 4096;

const bounded = (text: string, most: number) =>
  text.length > most ? `${text.slice(0, most - 1)}… (${text.length} characters)` : text;

function describe(init: OmniErrorInit): string {
  const where = init.endpoint ? `${init.endpoint}: ` : '';
  const status =
    init.httpStatus !== undefined
      ? ` [HTTP ${init.httpStatus}${init.serviceStatus !== undefined ? `, status ${init.serviceStatus}` : ''}]`
      : '';
  const fields = init.issues?.length ? ` (${init.issues.map((i) => `${i.path}: ${i.message}`).join('; ')})` : '';
  return `${where}${init.explanation.en}${status}${fields}`;
}

/** An error the app raises itself (no service code), explained by the client catalog. */
export function clientError(
  kind: Exclude<OmniErrorKind, 'http'>,
  code: ClientErrorCode,
  extra: Omit<OmniErrorInit, 'kind' | 'code' | 'explanation'> = {},
): OmniError {
  const explanation = explain({ client: code });
  if (!explanation) throw new Error(`no catalog entry for ${code}`);
  // An answer that is not the service's (a web page, a cut-off body) keeps its own code, not SCHEMA_MISMATCH.
  // So does a write whose answer was lost: the renderer tells it apart from a call that never left.
  const own = kind === 'config' || (kind === 'schema' && code !== 'SCHEMA_MISMATCH') || code === 'OUTCOME_UNKNOWN';
  return new OmniError({ kind, code: own ? code : KIND_CODE[kind], explanation, ...extra });
}

/** zod issues → field issues with dotted paths, optionally under a prefix (`query`, `body`). */
export function fieldIssues(error: z.ZodError, prefix?: string): FieldIssue[] {
  return error.issues.slice(0, 20).map((issue) => {
    const path = issue.path.map(String).join('.');
    return { path: prefix ? (path ? `${prefix}.${path}` : prefix) : path || '(root)', message: issue.message };
  });
}
