import { randomUUID } from 'node:crypto';
import { TokenManager } from '../auth/token';
import type { CredentialName, SecretStore } from '../auth/vault';
import { type Destination, serviceDestination } from '../auth/destination';
import { VaultDecryptError } from '../errors';
import { clientError, fieldIssues, OmniError } from './omni-error';
import { log as defaultLog, type Logger } from '../log';
import { explain, explainCurp, refusedBy, type Explanation } from './catalog';
import { ErrorBody } from '../../common/omni';
import {
  endpoints,
  type CallInput,
  type EndpointDef,
  type EndpointName,
  type ResponseOf,
  type TokenKind,
} from './endpoints';
import { readTolerantly } from './tolerant-read';
import { decodedWords, pageWords, parseAnswer, TooManyEntries } from './answer-text';
import { refusedTokenChar } from '../../common/ipc/settings';
import { otherInterviewOfToken } from '../../common/session-token';

export interface ClientEnvironment {
  id: string;
  /** `demo`: the embedded demo, one destination whatever port it listens on this run. */
  kind?: string;
  baseUrl: string;
  authUrl: string;
  apiVersion: string;
  /** Header that carries the token on later calls (decisions.md §1). */
  tokenHeader: string;
}

export interface CallOptions {
  /** The interview whose session token a session-bound call uses. */
  interviewId?: string;
  signal?: AbortSignal;
  /** Bounds the whole call, retries included. */
  timeoutMs?: number;
  /** streamed JSON body for huge uploads (video import): bytes of the whole JSON document */
  rawBody?: { stream: AsyncIterable<Uint8Array>; contentLength?: number };
  /** The write's own key, recorded with it before it is sent (review record): a retry of it sends the same key. */
  idempotencyKey?: string;
}

export interface RetryOptions {
  /** Total attempts of an idempotent GET, the first included. */
  attempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** A `Retry-After` longer than this is not waited for: the error carries it instead. */
  maxRetryAfterMs?: number;
  /** Total attempts of a write that met an answer saying it was not processed (429, 503), the first included. */
  writeAttempts?: number;
  /** A write waits at most this long for one `Retry-After`: the analyst is waiting on it. */
  maxWriteRetryAfterMs?: number;
}

export interface OmniClientOptions {
  env: ClientEnvironment;
  /** Secrets are looked up by where this client sends them: its environment's origins (auth/destination.ts). */
  vault: SecretStore;
  fetch?: typeof fetch;
  now?: () => number;
  tokens?: TokenManager;
  retry?: RetryOptions;
  logger?: Logger;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
/** Streamed uploads (video import) can legitimately take minutes. */
export const DEFAULT_UPLOAD_TIMEOUT_MS = 15 * 60_000;
const RETRY_STATUSES = new Set([429, 502, 503, 504]);
/**
 * Writes a user may resend after a lost answer. Each carries an Idempotency-Key (the caller's, recorded with the write
 * before it is sent, else one made for this call): the client's own retries repeat it, a new identical write does not
 * share it, and a service that honours it stores the write once (others ignore the header).
 */
const KEYED_WRITES = new Set<EndpointName>(['addConferenceNotes', 'addName']);

/** POSTs that change nothing on the service: asking for a server token again only issues another token. */
const SAFE_TO_REPEAT = new Set<EndpointName>(['authorizeServer']);
/**
 * POSTs whose lost answer is the network's, never "it may have gone through": they store nothing (an RFC looked up
 * again is looked up again). Not repeated by the client itself (a batch's runner repeats them, counted).
 */
const STORES_NOTHING = new Set<EndpointName>([...SAFE_TO_REPEAT, 'validateRfc']);
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'ECONNABORTED']);

/** One endpoint with everything that does not change between calls worked out once. */
interface Prepared {
  name: EndpointName;
  def: EndpointDef;
  url: string;
  isGet: boolean;
  token: TokenKind;
  idParam: string | undefined;
}

/** Why the last attempt failed, to decide whether another one may help. */
type Attempt =
  | { ok: true; value: unknown }
  | {
      ok: false;
      error: OmniError;
      retry: boolean;
      retryAfterMs?: number;
      unauthorized?: boolean;
      /** 429 (or a 503 to a keyed write): not processed, or safe to send again under its key. */
      notProcessed?: boolean;
    };

/**
 * The one generic client: `call(name, input)` validates the input against the endpoint table's schemas, adds
 * headers and token, sends, validates the answer and turns failures into explained `OmniError`s.
 */
export class OmniClient {
  readonly env: ClientEnvironment;
  private readonly vault: SecretStore;
  /** The one destination this client's secrets are looked up by: the origins it sends to. */
  private readonly to: Destination;
  private readonly fetchImpl: typeof fetch;
  private readonly now: () => number;
  private readonly tokens: TokenManager;
  private readonly retry: Required<RetryOptions>;
  private readonly log: Logger;
  private readonly prepared: Record<EndpointName, Prepared>;
  private readonly envError: OmniError | undefined;

  constructor(opts: OmniClientOptions) {
    this.env = opts.env;
    this.vault = opts.vault;
    this.to = serviceDestination(opts.env);
    this.fetchImpl = opts.fetch ?? globalThis.fetch.bind(globalThis);
    this.now = opts.now ?? Date.now;
    this.log = opts.logger ?? defaultLog;
    this.tokens = opts.tokens ?? new TokenManager({ authorize: () => this.requestServerToken(), now: this.now });
    this.retry = {
      attempts: Math.max(1, opts.retry?.attempts ?? 4),
      baseDelayMs: opts.retry?.baseDelayMs ?? 250,
      maxDelayMs: opts.retry?.maxDelayMs ?? 4_000,
      maxRetryAfterMs: opts.retry?.maxRetryAfterMs ?? 20_000,
      writeAttempts: Math.max(1, opts.retry?.writeAttempts ?? 3),
      maxWriteRetryAfterMs: opts.retry?.maxWriteRetryAfterMs ?? 5_000,
    };
    this.prepared = {} as Record<EndpointName, Prepared>;
    const problems: { path: string; message: string }[] = [];
    for (const name of Object.keys(endpoints) as EndpointName[]) {
      const def = endpoints[name] as EndpointDef;
      const key = def.host === 'auth' ? 'authUrl' : 'baseUrl';
      const url = endpointUrl(opts.env[key], def.path);
      if (url === undefined && !problems.some((p) => p.path === key))
        problems.push({ path: key, message: 'has a query, a fragment or a user name, or is not an http(s) URL' });
      this.prepared[name] = {
        name,
        def,
        url: url ?? '',
        isGet: def.method === 'GET',
        token: def.token,
        idParam: def.idParam,
      };
    }
    this.envError = checkEnvironment(opts.env, problems);
  }

  /** Forces a fresh server token (test connection) and returns when it expires. */
  async authorize(): Promise<{ expiresAt: number }> {
    if (this.envError) throw this.envError;
    const { expiresAt } = await this.tokens.forceRefresh();
    return { expiresAt };
  }

  tokenExpiresAt(): number | undefined {
    return this.tokens.expiresAt();
  }

  async call<N extends EndpointName>(name: N, input: CallInput<N>, opts: CallOptions = {}): Promise<ResponseOf<N>> {
    if (this.envError) throw this.envError;
    const p = this.prepared[name];
    if (!p)
      throw clientError('input', 'INVALID_INPUT', {
        issues: [{ path: 'endpoint', message: `unknown endpoint ${String(name)}` }],
      });

    const query = p.def.query.safeParse(input?.query ?? {});
    if (!query.success)
      throw clientError('input', 'INVALID_INPUT', { endpoint: name, issues: fieldIssues(query.error, 'query') });
    let body: string | undefined;
    if (!p.isGet && !opts.rawBody) {
      const parsed = p.def.body.safeParse(input?.body);
      if (!parsed.success)
        throw clientError('input', 'INVALID_INPUT', { endpoint: name, issues: fieldIssues(parsed.error, 'body') });
      body = JSON.stringify(parsed.data);
    }
    const queryData = query.data as Record<string, unknown>;
    const url = p.url + queryString(queryData);

    const deadline = new Deadline(
      opts.timeoutMs ?? (opts.rawBody ? DEFAULT_UPLOAD_TIMEOUT_MS : DEFAULT_TIMEOUT_MS),
      opts.signal,
    );
    try {
      const headers: Record<string, string> = {
        'api-version': this.env.apiVersion,
        'x-api-key': await this.credential('apiKey', name),
      };
      if (!p.isGet) headers['content-type'] = 'application/json';
      if (body !== undefined && KEYED_WRITES.has(name))
        headers['idempotency-key'] = opts.idempotencyKey ?? randomUUID();
      if (opts.rawBody?.contentLength !== undefined) headers['content-length'] = String(opts.rawBody.contentLength);

      // Which token: fetch endpoints use the server token when the interview is named in the query.
      const kind: TokenKind =
        p.token === 'fetch' ? (p.idParam && queryData[p.idParam] !== undefined ? 'server' : 'session') : p.token;
      let token: string | undefined;
      if (kind === 'server') {
        const t = this.tokens.getToken();
        // Waiting for an authorization still honours cancel and timeout; the authorization itself goes on for others.
        token = typeof t === 'string' ? t : await deadline.race(t, name);
      } else if (kind === 'session') {
        token = await this.sessionToken(name, opts.interviewId);
      }

      let renewed = false;
      for (let attempt = 1; ; attempt++) {
        const stopped = deadline.failure(name);
        if (stopped) throw stopped;
        if (token !== undefined) headers[this.env.tokenHeader] = token;
        // A redirect is never followed: fetch would take the API key, the secret (a 307 resends the body) and the
        // session token to wherever the answer points, and a secret goes only to the addresses it was entered for.
        const init: RequestInit & { duplex?: 'half' } = {
          method: p.def.method,
          headers,
          signal: deadline.signal,
          redirect: 'manual',
        };
        if (opts.rawBody) {
          init.body = toReadableStream(opts.rawBody.stream);
          init.duplex = 'half';
        } else if (body !== undefined) init.body = body;

        const result = await this.attempt(p, url, init, deadline, kind);
        if (result.ok) return result.value as ResponseOf<N>;

        // A server token the service no longer accepts: authorize once more and repeat once.
        if (result.unauthorized && kind === 'server' && !renewed && token !== undefined && !opts.rawBody) {
          renewed = true;
          token = await deadline.race(this.tokens.renew(token), name);
          continue;
        }
        // Reads repeat on any transient failure; a write only on an answer that says nothing was processed (429) or,
        // under its key, a 503; and only while its body can be sent again.
        const repeatable = p.isGet || SAFE_TO_REPEAT.has(name);
        const write = !repeatable;
        const retryAfter = result.retryAfterMs;
        const mayRetry =
          result.retry &&
          (repeatable ||
            (result.notProcessed === true &&
              !opts.rawBody &&
              (retryAfter === undefined || retryAfter <= this.retry.maxWriteRetryAfterMs)));
        if (!mayRetry || attempt >= (write ? this.retry.writeAttempts : this.retry.attempts)) throw result.error;
        const backoff =
          Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (attempt - 1)) * (0.5 + Math.random() / 2);
        // Jitter on top of Retry-After too, so clients told the same second do not all come back in it.
        const wait =
          retryAfter === undefined
            ? backoff
            : Math.max(backoff, retryAfter + Math.random() * Math.min(1_000, 100 + retryAfter / 5));
        this.log.info('omni call retried', {
          endpoint: name,
          attempt,
          waitMs: Math.round(wait),
          reason: result.error.code,
          httpStatus: result.error.httpStatus,
        });
        await deadline.sleep(wait, name);
      }
    } finally {
      deadline.dispose();
    }
  }

  private async attempt(
    p: Prepared,
    url: string,
    init: RequestInit,
    deadline: Deadline,
    kind: TokenKind,
  ): Promise<Attempt> {
    let res: Response | undefined;
    let text: string | undefined;
    try {
      res = await this.fetchImpl(url, init);
      text = await readBounded(res);
    } catch (e) {
      const stopped = deadline.failure(p.name, e);
      if (stopped) return { ok: false, error: stopped, retry: false };
      // The service answered a write but the answer was cut off: it may well have applied it.
      if (res?.ok && !p.isGet)
        return {
          ok: false,
          error: clientError('schema', 'WRITE_ANSWER_UNREADABLE', {
            endpoint: p.name,
            httpStatus: res.status,
            cause: e,
          }),
          retry: false,
        };
      const code = errorCode(e);
      const reset = code !== undefined && RESET_CODES.has(code);
      // A write whose connection broke after it was sent: the service may have applied it.
      if (reset && !p.isGet && !STORES_NOTHING.has(p.name))
        return {
          ok: false,
          error: new OmniError({
            ...errorInit(clientError('network', 'OUTCOME_UNKNOWN', { endpoint: p.name, cause: e })),
            explanation: outcomeUnknown(p.name),
          }),
          retry: false,
        };
      // The answer came and its body could not be read (it said it was compressed and was not, say): not the network.
      if (res && !reset)
        return {
          ok: false,
          error: clientError('schema', 'NOT_THE_SERVICE', {
            endpoint: p.name,
            httpStatus: res.status,
            serviceWords: bodyFailure(e),
          }),
          retry: false,
        };
      // fetch itself refuses an answer it cannot decode (more content-encodings than it undoes): it did answer.
      if (!reset && /content-encoding/i.test(bodyFailure(e)))
        return {
          ok: false,
          error: clientError('schema', 'NOT_THE_SERVICE', { endpoint: p.name, serviceWords: bodyFailure(e) }),
          retry: false,
        };
      return {
        ok: false,
        error: clientError('network', 'NETWORK', { endpoint: p.name, cause: e }),
        retry: reset,
      };
    }

    if (text === undefined)
      return {
        ok: false,
        // After a write the service may have stored it all the same.
        error: clientError('schema', res.ok && !p.isGet ? 'WRITE_ANSWER_UNREADABLE' : 'ANSWER_TOO_LARGE', {
          endpoint: p.name,
          httpStatus: res.status,
        }),
        retry: false,
      };
    if (res.status >= 300 && res.status < 400)
      return {
        ok: false,
        error: clientError('schema', 'REDIRECTED', {
          endpoint: p.name,
          httpStatus: res.status,
          serviceWords: `${res.status} → ${res.headers.get('location') ?? '(no address)'}`,
        }),
        retry: false,
      };
    if (res.ok) {
      let json: unknown;
      try {
        json = text === '' ? undefined : parseAnswer(text);
      } catch (e) {
        if (e instanceof TooManyEntries)
          return {
            ok: false,
            error: clientError('schema', p.def.method !== 'GET' ? 'WRITE_ANSWER_UNREADABLE' : 'ANSWER_TOO_LARGE', {
              endpoint: p.name,
              httpStatus: res.status,
            }),
            retry: false,
          };
        // A web page (proxy, captive portal) or a cut-off body; after a write the service may still have applied it.
        const looksLikePage = /^\s*</.test(text);
        const code = !looksLikePage && p.def.method !== 'GET' ? 'WRITE_ANSWER_UNREADABLE' : 'NOT_THE_SERVICE';
        return {
          ok: false,
          error: clientError('schema', code, {
            endpoint: p.name,
            httpStatus: res.status,
            ...(looksLikePage ? { serviceWords: pageWords(text) } : {}),
          }),
          retry: false,
        };
      }
      const parsed = readTolerantly(p.def.response, json);
      if (parsed.success) return { ok: true, value: parsed.data };
      return {
        ok: false,
        error: clientError('schema', 'SCHEMA_MISMATCH', {
          endpoint: p.name,
          httpStatus: res.status,
          issues: fieldIssues(parsed.error),
        }),
        retry: false,
      };
    }

    const status = res.status;
    let error = httpError(p.name, status, text, kind);
    const retryAfterMs =
      status === 429 || status === 503 ? parseRetryAfter(res.headers.get('retry-after'), this.now()) : undefined;
    const storesSomething = !p.isGet && !STORES_NOTHING.has(p.name);
    // A 503 to a write is no proof that nothing was processed: an Envoy-style gateway answers one for an upstream reset
    // after forwarding (red team 21), and a Spring hop or the service itself, in Spring's error shape, after a
    // downstream call timed out, with or without a Retry-After (red team 23). A keyed write may go again under its
    // key; any other is not sent twice. Only a 429 (the spec's rate limit) says it was refused unprocessed.
    const lostBy503 = status === 503 && !KEYED_WRITES.has(p.name);
    // A gateway that lost the service's answer to a write: it may have been applied.
    if ((status === 502 || status === 504 || lostBy503) && storesSomething) {
      error = new OmniError({
        ...errorInit(error),
        code: 'OUTCOME_UNKNOWN',
        explanation: outcomeUnknown(p.name),
      });
      return { ok: false, error, retry: false };
    }
    if (status === 429 || status === 503) {
      if (retryAfterMs !== undefined) {
        const tooLong = retryAfterMs > this.retry.maxRetryAfterMs;
        const withWait = new OmniError({
          ...errorInit(error),
          explanation: waitFor(error.explanation, retryAfterMs),
          retryAfterMs,
        });
        return { ok: false, error: withWait, retry: !tooLong, retryAfterMs, notProcessed: true };
      }
      return { ok: false, error, retry: true, notProcessed: true };
    }
    return { ok: false, error, retry: RETRY_STATUSES.has(status), unauthorized: status === 401 };
  }

  private async credential(name: CredentialName, endpoint: EndpointName): Promise<string> {
    let value: string | undefined;
    try {
      value = await this.vault.getCredential(this.to, name);
    } catch (e) {
      if (e instanceof VaultDecryptError)
        throw clientError('config', 'CREDENTIAL_UNDECRYPTABLE', {
          endpoint,
          cause: e,
          issues: [{ path: name, message: 'cannot be decrypted' }],
        });
      throw e;
    }
    if (value === undefined)
      throw clientError('config', 'NO_CREDENTIALS', { endpoint, issues: [{ path: name, message: 'not set' }] });
    return value;
  }

  private async sessionToken(endpoint: EndpointName, interviewId: string | undefined): Promise<string> {
    let token: string | undefined;
    if (interviewId) {
      try {
        token = await this.vault.getSessionToken(this.to, interviewId);
      } catch (e) {
        if (e instanceof VaultDecryptError)
          throw clientError('config', 'CREDENTIAL_UNDECRYPTABLE', {
            endpoint,
            cause: e,
            issues: [{ path: 'sessionToken', message: 'cannot be decrypted' }],
          });
        throw e;
      }
    }
    // Sent with another interview's token, a write lands on that interview: whatever stored it, it does not leave.
    const other = token !== undefined && interviewId ? otherInterviewOfToken(token, interviewId) : undefined;
    if (other !== undefined)
      throw clientError('config', 'SESSION_TOKEN_OF_OTHER_INTERVIEW', {
        endpoint,
        issues: [{ path: 'sessionToken', message: `names interview ${other}, not ${interviewId}` }],
      });
    if (token === undefined) {
      throw clientError('config', 'NO_SESSION_TOKEN', {
        endpoint,
        issues: [
          {
            path: 'interviewId',
            message: interviewId ? `no session token for interview ${interviewId}` : 'no interview given',
          },
        ],
      });
    }
    return token;
  }

  /** One authorization request; both spellings of the integration id (decisions.md §3). */
  private async requestServerToken(): Promise<string> {
    const integrationId = await this.credential('integrationId', 'authorizeServer');
    const secret = await this.credential('secret', 'authorizeServer');
    const { token } = await this.call('authorizeServer', {
      body: { integration_id: integrationId, integrationId, secret },
    });
    return token;
  }
}

/** Aborts on the caller's signal or when the time is up, and tells the two apart. */
class Deadline {
  private readonly controller = new AbortController();
  private readonly timer: ReturnType<typeof setTimeout>;
  private readonly onAbort: (() => void) | undefined;
  private timedOut = false;

  constructor(
    private readonly timeoutMs: number,
    private readonly outer: AbortSignal | undefined,
  ) {
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.controller.abort(new Error(`timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    if (outer) {
      if (outer.aborted) this.controller.abort(outer.reason);
      else {
        this.onAbort = () => this.controller.abort(outer.reason);
        outer.addEventListener('abort', this.onAbort, { once: true });
      }
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The error to throw when the call was stopped (cancelled or timed out); undefined otherwise. */
  failure(endpoint: EndpointName, cause?: unknown): OmniError | undefined {
    if (!this.controller.signal.aborted) return undefined;
    if (this.timedOut)
      return clientError('timeout', 'TIMEOUT', {
        endpoint,
        cause,
        issues: [{ path: 'timeoutMs', message: `no answer within ${this.timeoutMs} ms` }],
      });
    return clientError('aborted', 'ABORTED', { endpoint, cause });
  }

  /** Waits for `promise` unless the call is stopped first. */
  race<T>(promise: Promise<T>, endpoint: EndpointName): Promise<T> {
    const signal = this.controller.signal;
    if (signal.aborted) return Promise.reject(this.failure(endpoint));
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(this.failure(endpoint));
      signal.addEventListener('abort', onAbort, { once: true });
      promise.then(
        (v) => {
          signal.removeEventListener('abort', onAbort);
          resolve(v);
        },
        (e: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(e);
        },
      );
    });
  }

  sleep(ms: number, endpoint: EndpointName): Promise<void> {
    return new Promise((resolve, reject) => {
      const signal = this.controller.signal;
      if (signal.aborted) return reject(this.failure(endpoint));
      const onAbort = () => {
        clearTimeout(t);
        reject(this.failure(endpoint));
      };
      const t = setTimeout(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  dispose() {
    clearTimeout(this.timer);
    if (this.onAbort) this.outer?.removeEventListener('abort', this.onAbort);
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Why a body could not be read, in the decoder's words (`incorrect header check`), one line. */
function bodyFailure(error: unknown): string {
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  const message = cause instanceof Error ? cause.message : error instanceof Error ? error.message : String(error);
  return message.replace(/\s+/g, ' ').slice(0, 200);
}

/**
 * The most an answer may hold once decoded. The service's answers are JSON of a few kilobytes; a proxy or a gateway
 * can send far more, and a compressed body of 2 MB unpacks to 2 GB, which read whole stopped the process (V8 aborts
 * on a string past 2^31 bytes) or held gigabytes after the 1 GB one.
 */
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

/** The body as text, or undefined when it is (or says it is) larger than `MAX_ANSWER_BYTES`: the rest is not read. */
async function readBounded(res: Response): Promise<string | undefined> {
  if (!res.body) return '';
  if (Number(res.headers.get('content-length')) > MAX_ANSWER_BYTES) {
    await res.body.cancel().catch(() => undefined);
    return undefined;
  }
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/** A non-2xx answer: the error body parsed, and the catalog's explanation of the most specific code in it. */
function httpError(endpoint: EndpointName, status: number, text: string, kind: TokenKind): OmniError {
  let json: unknown;
  try {
    json = text === '' ? undefined : parseAnswer(text);
  } catch {
    json = undefined;
  }
  const parsed = readTolerantly(ErrorBody, json);
  const body = parsed.success ? parsed.data : undefined;
  let explanation: Explanation | undefined;
  let serviceStatus: number | string | undefined = body?.status;
  let code = 'OMNI_HTTP';

  if (isRecord(json) && isRecord(json.error)) {
    // Face authentication names its failure in `error.name`; CURP failures carry registry or provider codes.
    const named = typeof json.error.name === 'string' ? explain({ authError: json.error.name }) : undefined;
    explanation = named ?? explainCurp(json);
    if (explanation) serviceStatus = explanation.code;
  }
  if (!explanation && body) explanation = explain({ faceStatus: body.status });
  if (!explanation && status === 401 && kind === 'session' && !blamesApiKey(body)) {
    explanation = explain({ client: 'SESSION_TOKEN_REJECTED' });
    code = 'SESSION_TOKEN_REJECTED';
  }
  // A proxy's or portal's HTML page in place of the service's error body: a 5xx page is a gateway saying the
  // service is not answering (a passing outage); any other page names the address.
  if (!explanation && json === undefined && /^\s*</.test(text)) {
    const outage = status >= 500;
    explanation = explain({ client: outage ? 'SERVICE_NOT_ANSWERING' : 'NOT_THE_SERVICE' });
    if (outage) code = 'SERVICE_NOT_ANSWERING';
  }
  const refused = status === 400 && !explanation ? refusedBy(endpoint) : undefined;
  explanation ??= refused ? { code: 'HTTP_400', ...refused } : explain({ httpStatus: status })!;

  const init: ConstructorParameters<typeof OmniError>[0] = {
    kind: 'http',
    code,
    explanation,
    endpoint,
    httpStatus: status,
  };
  if (serviceStatus !== undefined && serviceStatus !== status) init.serviceStatus = serviceStatus;
  if (body) init.body = body;
  else if (json !== undefined) {
    init.data = json;
    // Not the service's usual error body (no timestamp, say), but its words all the same.
    const words = wordsOf(json);
    if (words) init.serviceWords = words;
  } else if (text.trim()) init.serviceWords = pageWords(text);
  return new OmniError(init);
}

/** The message of an error body in another shape: `message`, then `detail` and `title` (RFC 9457), then `error`. */
function wordsOf(json: unknown): string | undefined {
  if (!isRecord(json)) return undefined;
  for (const key of ['message', 'detail', 'title', 'error'])
    if (typeof json[key] === 'string' && json[key].trim()) return decodedWords(json[key]).trim();
  return undefined;
}

/** The explanation with the wait the service asked for, in seconds, at the head of its advice. */
function waitFor(explanation: Explanation, ms: number): Explanation {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  // Seconds, minutes or hours, as a person reads a wait (a day was "86400 s").
  const wait =
    seconds < 120
      ? `${seconds} s`
      : seconds < 7200
        ? `${Math.ceil(seconds / 60)} min`
        : `${Math.round(seconds / 3600)} h`;
  return {
    ...explanation,
    adviceEn: `The service asked to wait ${wait}. ${explanation.adviceEn}`,
    adviceEs: `El servicio pidió esperar ${wait}. ${explanation.adviceEs}`,
  };
}

/** Whether a 401 body points at the API key rather than the token (by header name in details or message). */
function blamesApiKey(body: ErrorBody | undefined): boolean {
  if (!body) return false;
  const header = body.details?.header;
  return (typeof header === 'string' && header.toLowerCase() === 'x-api-key') || /x-api-key/i.test(body.message ?? '');
}

/**
 * What a lost answer means: a note or a name is sent again with the same idempotency key, so the service keeps one
 * copy; any other write carries no key, and a resend is a new one (a capture attempt used, a second NOM-151 seal).
 */
function outcomeUnknown(name: EndpointName) {
  const keyed = KEYED_WRITES.has(name);
  return { ...explain({ client: keyed ? 'OUTCOME_UNKNOWN' : 'OUTCOME_UNKNOWN_UNKEYED' })!, code: 'OUTCOME_UNKNOWN' };
}

function errorInit(e: OmniError): ConstructorParameters<typeof OmniError>[0] {
  const init: ConstructorParameters<typeof OmniError>[0] = { kind: e.kind, code: e.code, explanation: e.explanation };
  if (e.endpoint !== undefined) init.endpoint = e.endpoint;
  if (e.httpStatus !== undefined) init.httpStatus = e.httpStatus;
  if (e.serviceStatus !== undefined) init.serviceStatus = e.serviceStatus;
  if (e.body !== undefined) init.body = e.body;
  if (e.data !== undefined) init.data = e.data;
  if (e.serviceWords !== undefined) init.serviceWords = e.serviceWords;
  return init;
}

/**
 * `Retry-After` as delta-seconds or an HTTP date (RFC 9110: `Sun, 06 Nov 1994 08:49:37 GMT`); milliseconds from now, at
 * most a day. Anything else is no wait at all: `1.5` or `-5` had been read as dates long past (retried at once), and
 * twenty nines as a wait of 10^20 seconds.
 */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  const trimmed = value?.trim() ?? '';
  if (/^\d{1,12}$/.test(trimmed)) return Math.min(Number(trimmed) * 1000, MAX_RETRY_AFTER_MS);
  if (!/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(trimmed)) return undefined;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.min(Math.max(0, at - now), MAX_RETRY_AFTER_MS);
}

const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

function toReadableStream(source: AsyncIterable<Uint8Array>): ReadableStream<Uint8Array> {
  const it = source[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await it.next();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    async cancel(reason) {
      await it.return?.(reason);
    },
  });
}

function queryString(query: Record<string, unknown>): string {
  let out = '';
  for (const key in query) {
    const value = query[key];
    if (value === undefined || value === null) continue;
    out += (out ? '&' : '?') + encodeURIComponent(key) + '=' + encodeURIComponent(String(value));
  }
  return out;
}

function errorCode(e: unknown): string | undefined {
  for (let cur: unknown = e, depth = 0; cur && depth < 4; depth++) {
    if (isRecord(cur) && typeof cur.code === 'string') return cur.code;
    cur = isRecord(cur) || cur instanceof Error ? (cur as { cause?: unknown }).cause : undefined;
  }
  return undefined;
}

/**
 * The endpoint's address under a configured base: that base's origin, its path, then the endpoint's path. A base
 * with a query, a fragment or a user name gets none: a `#` or `?` would cut the endpoint's path off and let the
 * base alone choose the path (red team 7, finding 4). Built from the parsed base and checked again after parsing.
 */
export function endpointUrl(configured: string, path: string): string | undefined {
  let base: URL;
  try {
    base = new URL(configured);
  } catch {
    return undefined;
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') return undefined;
  if (base.search || base.hash || configured.includes('#') || configured.includes('?')) return undefined;
  if (base.username || base.password) return undefined;
  const prefix = base.pathname.replace(/\/+$/, '');
  const url = new URL(`${base.origin}${prefix}/${path.replace(/^\/+/, '')}`);
  return url.origin === base.origin && url.pathname.startsWith(`${prefix}/`) && !url.search && !url.hash
    ? url.href
    : undefined;
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** `problems` holds what building the endpoints' addresses found. */
function checkEnvironment(
  env: ClientEnvironment,
  problems: { path: string; message: string }[],
): OmniError | undefined {
  const refused = env.apiVersion?.trim() ? refusedTokenChar(env.apiVersion) : undefined;
  if (!env.apiVersion?.trim()) problems.push({ path: 'apiVersion', message: 'is empty' });
  // Saved before the header was checked as the wire accepts it: every call would fail as "not reached".
  else if (refused)
    problems.push({ path: 'apiVersion', message: `has the character ${refused}, which a header cannot carry` });
  if (!HEADER_NAME.test(env.tokenHeader ?? ''))
    problems.push({ path: 'tokenHeader', message: 'is not a valid header name' });
  return problems.length ? clientError('config', 'INVALID_ENVIRONMENT', { issues: problems }) : undefined;
}
