import { z } from 'zod';

/**
 * One IPC channel: the zod schema main validates the input with, and the output type the renderer gets.
 * The output is type-only (main produces it; the renderer trusts main, not the other way round).
 */
export interface ChannelDef<I extends z.ZodType = z.ZodType, O = unknown> {
  input: I;
  /** Phantom field carrying the output type; never set at runtime. */
  readonly __output?: O;
}

/**
 * A channel's input is held to its schema's keys: an object schema refuses a key it does not name (zod's default drops
 * it silently, so a misspelt or unexpected field looked accepted).
 */
export function channel<O>() {
  return <I extends z.ZodType>(input: I): ChannelDef<I, O> => ({
    input: input instanceof z.ZodObject ? (input.strict() as unknown as I) : input,
  });
}

export type DomainDef = Record<string, ChannelDef>;
export type InputOf<C> = C extends ChannelDef<infer I, unknown> ? z.input<I> : never;
export type ParsedInputOf<C> = C extends ChannelDef<infer I, unknown> ? z.output<I> : never;
export type OutputOf<C> = C extends ChannelDef<z.ZodType, infer O> ? O : never;

/** Errors cross IPC as plain data; secrets are redacted before this is built. */
export interface IpcErrorData {
  /** Stable machine code: `INVALID_INPUT`, `OMNI_HTTP`, `NETWORK`, `TIMEOUT`, `NO_CREDENTIALS`, `NO_SESSION_TOKEN`, ... */
  code: string;
  /** Human text in English and Spanish (Mexico). */
  message: { en: string; es: string };
  /** What the user can do next, in both languages, when known. */
  advice?: { en: string; es: string };
  /** HTTP status when the service answered. */
  httpStatus?: number;
  /** The service's custom `status` code (e.g. 4019) or catalog code (e.g. `01-06`). */
  serviceCode?: string;
  /** Whether retrying the same call can help. */
  retryable?: boolean;
  /** Field-level problems for invalid input: the reason in English, and in Spanish where the app has it. */
  issues?: { path: string; message: string; messageEs?: string }[];
  details?: Record<string, unknown>;
}

export type IpcResult<O> = { ok: true; data: O } | { ok: false; error: IpcErrorData };

/**
 * Web shell only: `POST /ipc` carries the calls the page made in one tick as `BatchedCall[]`; the host answers with
 * one NDJSON line (`BatchedAnswer`) per call, written the moment that call is done.
 */
export const IPC_BATCH_ROUTE = '/ipc';
export interface BatchedCall {
  channel: string;
  input: unknown;
}
export interface BatchedAnswer {
  /** Index of the call in the batch. */
  i: number;
  result: IpcResult<unknown>;
}

const spanishOfMessage = new Map<string, string>();

/**
 * A schema's own message in both languages: zod keeps the English one on the issue, and the router finds its Spanish
 * here (zod's own messages it words in Spanish itself).
 */
export function says(en: string, es: string): string {
  spanishOfMessage.set(en, es);
  return en;
}

export function spanishOf(en: string): string | undefined {
  return spanishOfMessage.get(en);
}
