import { z } from 'zod';
import {
  contract,
  type Contract,
  type IpcErrorData,
  type IpcResult,
  type OutputOf,
  type ParsedInputOf,
  spanishOf,
} from '../../common/ipc/index';
import { toIpcErrorData } from '../errors';
import { echoShield } from '../errors/echo';
import { redact } from '../log';
import type { MainContext } from '../ports';

/**
 * Transport-free IPC router. Electron's `ipcMain.handle` and the web shell's loopback host both hand it
 * `(channel, input, sender)`; it checks the sender, validates the input with the channel's zod schema, runs the
 * handler and always answers an `IpcResult` (never throws, never echoes a secret).
 */

/** One domain's handlers: one async function per contract method, typed from the contract. */
export type DomainHandlers<D extends keyof Contract> = {
  [M in keyof Contract[D]]: (
    input: ParsedInputOf<Contract[D][M]>,
    ctx: MainContext,
  ) => Promise<OutputOf<Contract[D][M]>>;
};

export type AllHandlers = { [D in keyof Contract]: DomainHandlers<D> };

/** Who sent a call, as the transport knows it. */
export interface SenderInfo {
  /** URL of the sending frame (Electron: `senderFrame.url`; web shell: the request's `Origin`). */
  url: string;
  /** Whether the sender is the top-level frame (always true for the web shell, which checks Origin instead). */
  isMainFrame: boolean;
}

export interface RouterOptions {
  handlers: AllHandlers;
  context: MainContext;
  /** The app's own origin, e.g. `app://omni` or `http://127.0.0.1:5173`. Only frames on it are served. */
  appUrl: string;
  /** Called with unexpected (non-Omni) failures so the shell can log them; must redact itself. */
  onUnexpectedError?: (channel: string, error: unknown) => void;
}

export interface Router {
  /** Every wire channel name `<domain>.<method>`, for transports that register channels one by one. */
  channels(): string[];
  handle(channel: string, input: unknown, sender: SenderInfo): Promise<IpcResult<unknown>>;
}

interface ChannelEntry {
  schema: z.ZodType;
  run: (input: unknown, ctx: MainContext) => Promise<unknown>;
}

/** Same app when scheme and host (with port) match; `URL.origin` is "null" for custom schemes, so compare parts. */
export function isAppUrl(candidate: string, appUrl: string): boolean {
  let a: URL;
  let b: URL;
  try {
    a = new URL(candidate);
    b = new URL(appUrl);
  } catch {
    return false;
  }
  return a.protocol === b.protocol && a.host === b.host && a.username === '' && a.password === '';
}

export function createRouter(opts: RouterOptions): Router {
  const table = new Map<string, ChannelEntry>();
  for (const [domain, methods] of Object.entries(contract) as [string, Record<string, { input: z.ZodType }>][]) {
    const domainHandlers = (
      opts.handlers as unknown as Record<string, Record<string, ChannelEntry['run']> | undefined>
    )[domain];
    for (const [method, def] of Object.entries(methods)) {
      const run = domainHandlers?.[method];
      if (typeof run !== 'function') throw new Error(`IPC channel ${domain}.${method} has no handler`);
      table.set(`${domain}.${method}`, { schema: def.input, run });
    }
  }

  return {
    channels: () => [...table.keys()],
    async handle(channel, input, sender) {
      if (!sender.isMainFrame || !isAppUrl(sender.url, opts.appUrl)) return { ok: false, error: forbiddenSender() };
      const entry = table.get(channel);
      if (!entry) return { ok: false, error: unknownChannel() };
      const parsed = entry.schema.safeParse(input);
      if (!parsed.success) return { ok: false, error: invalidInput(inBothLanguages(parsed.error.issues, input)) };
      const illFormed = illFormedText(parsed.data);
      if (illFormed) return { ok: false, error: invalidInput([illFormed]) };
      try {
        return { ok: true, data: await entry.run(parsed.data, opts.context) };
      } catch (error) {
        // The caller's own text is set aside before any redaction and put back after it, so "[redacted]" never
        // tells it its guess is a secret. Known errors redact themselves; the second pass covers any that forgot.
        const shield = echoShield(parsed.data);
        const data = toIpcErrorData(shield.hide(error), channel, opts.onUnexpectedError);
        return { ok: false, error: shield.restore(redact(shield.hide(data))) };
      }
    },
  };
}

/**
 * A string no channel can keep: a NUL (PostgreSQL's text and C strings end at it) or a lone surrogate (not text:
 * it cannot be written as UTF-8). Refused for every channel here, with the character named, rather than failing
 * untyped in the record or a header later.
 */
export function illFormedText(value: unknown, path: PropertyKey[] = []): InputIssue | undefined {
  if (typeof value === 'string') {
    // eslint-disable-next-line no-control-regex -- NUL is exactly what is refused
    const bad = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.exec(value);
    if (!bad) return undefined;
    const code = `U+${bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
    return bad[0] === '\u0000'
      ? {
          path,
          message: `Contains a NUL character (${code}) at position ${bad.index}, which cannot be kept`,
          messageEs: `Contiene un carácter NUL (${code}) en la posición ${bad.index}, que no se puede guardar`,
        }
      : {
          path,
          message: `Contains a lone surrogate (${code}) at position ${bad.index}, which is not text`,
          messageEs: `Contiene un sustituto suelto (${code}) en la posición ${bad.index}, que no es texto`,
        };
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const found = illFormedText(key, path) ?? illFormedText(item, [...path, key]);
      if (found) return found;
    }
  }
  return undefined;
}

type InputIssue = { path: PropertyKey[]; message: string; messageEs?: string };

const englishWords = z.locales.en().localeError;
const spanishWords = z.locales.es().localeError;

/** Issues said for one refused input, and the characters of each reason: the rest says nothing more. */
const ISSUES_SAID = 20;
const REASON_CHARS = 300;

/**
 * The input's issues with their reasons in Spanish too: a schema's own message from `says`, zod's own in zod's
 * Spanish. zod's words for a type name what was received, so each issue's value is looked up in the input (never
 * sent back). At most `ISSUES_SAID`, each cut to `REASON_CHARS` (3 million unknown keys had been listed whole, twice:
 * an 82 MB answer; red team 21).
 */
function inBothLanguages(issues: readonly z.core.$ZodIssue[], input: unknown): InputIssue[] {
  return issues.slice(0, ISSUES_SAID).map((issue) => {
    const withInput = { ...issue, input: valueAt(input, issue.path) } as z.core.$ZodIssue;
    const own = spanishOf(issue.message);
    const zods = wordsOf(englishWords, withInput) === issue.message;
    const messageEs = own ?? (zods ? wordsOf(spanishWords, withInput) : undefined);
    return {
      path: issue.path,
      message: cut(issue.message),
      ...(messageEs ? { messageEs: cut(messageEs) } : {}),
    };
  });
}

const cut = (text: string) => (text.length > REASON_CHARS ? `${text.slice(0, REASON_CHARS - 1)}…` : text);

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let at = root;
  for (const key of path) {
    if (typeof at !== 'object' || at === null || !Object.hasOwn(at, key)) return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}

/** zod's words for an issue in one locale (its issues as parsed carry what the error map reads). */
function wordsOf(locale: z.core.$ZodErrorMap, issue: z.core.$ZodIssue): string | undefined {
  const words = locale(issue as unknown as z.core.$ZodRawIssue);
  return typeof words === 'string' ? words : words?.message;
}

function invalidInput(issues: readonly InputIssue[]): IpcErrorData {
  const list = issues.map((issue) => ({
    path: issue.path.map(String).join('.') || '(input)',
    message: issue.message,
    ...(issue.messageEs ? { messageEs: issue.messageEs } : {}),
  }));
  const fields = [...new Set(list.map((i) => i.path))].join(', ');
  return {
    code: 'INVALID_INPUT',
    message: {
      en: `Some values are not valid: ${fields}.`,
      es: `Algunos valores no son válidos: ${fields}.`,
    },
    advice: {
      en: 'Correct the highlighted fields and try again.',
      es: 'Corrige los campos señalados e inténtalo de nuevo.',
    },
    retryable: false,
    issues: list,
  };
}

function forbiddenSender(): IpcErrorData {
  return {
    code: 'FORBIDDEN_SENDER',
    message: {
      en: 'This request did not come from the app window and was refused.',
      es: 'Esta solicitud no provino de la ventana de la aplicación y fue rechazada.',
    },
    retryable: false,
  };
}

/** The name is the caller's text, so it is not repeated (errors never echo input). */
function unknownChannel(): IpcErrorData {
  return {
    code: 'UNKNOWN_CHANNEL',
    message: {
      en: 'The app has no such operation.',
      es: 'La aplicación no tiene esa operación.',
    },
    advice: {
      en: 'Reload the window; the app may have been updated.',
      es: 'Recarga la ventana; la aplicación pudo haberse actualizado.',
    },
    retryable: false,
  };
}
