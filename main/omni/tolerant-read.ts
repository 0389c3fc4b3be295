import { z } from 'zod';
import { UNREAD_FIELDS } from '../../common/omni';

/**
 * The one place where production answers are read leniently, whatever the endpoint. The zod contract stays the
 * source of types; this only reshapes what a service may send that the spec does not forbid:
 * - a list wrapped in a page object (`{ content: [...], totalElements }`, `items`, `data`, `results`, `records`);
 * - `null` for an optional field (Java services): dropped where, and only where, the schema rejects the null;
 * - an id or other text sent as a number, a number or a boolean sent as text: read as the type the contract names;
 * - any field that still does not fit is degraded alone: moved, as it came, under `unreadFields` of the nearest
 *   object (an array item that does not fit, under the array's name there), so the rest of the answer is read.
 * Times (ISO, epoch ms or s) and enum values newer than the spec are read by the contract itself (`Timestamp`,
 * `openEnum`).
 */
const PAGE_KEYS = ['content', 'items', 'data', 'results', 'records', 'elements'] as const;
const MAX_PASSES = 64;

type Path = PropertyKey[];

export function readTolerantly<S extends z.ZodType>(schema: S, json: unknown): z.ZodSafeParseResult<z.output<S>> {
  let value = unwrapPage(schema, json);
  let parsed = schema.safeParse(value);
  for (let pass = 0; !parsed.success && pass < MAX_PASSES; pass++) {
    const mended = mend(value, parsed.error.issues);
    if (mended) {
      value = mended;
      parsed = schema.safeParse(value);
      continue;
    }
    // Nothing to mend: set aside the first field that still fails, as small a part of the answer as will do.
    const degraded = degradeFirst(schema, value, parsed.error.issues);
    if (!degraded) break;
    value = degraded.value;
    parsed = degraded.parsed;
  }
  return parsed;
}

/** Drops rejected nulls and converts text/number/boolean mix-ups; undefined when no issue could be mended. */
function mend(value: unknown, issues: z.core.$ZodIssue[]): unknown {
  const fixes: { path: Path; to: unknown; drop: boolean }[] = [];
  for (const issue of issues) {
    if (issue.code !== 'invalid_type') continue;
    const at = valueAt(value, issue.path);
    if (at === null) fixes.push({ path: issue.path, to: undefined, drop: true });
    else if (issue.expected === 'string' && typeof at === 'number' && Number.isFinite(at))
      fixes.push({ path: issue.path, to: String(at), drop: false });
    else if (issue.expected === 'number' && typeof at === 'string' && /^-?\d+(\.\d+)?$/.test(at.trim()))
      fixes.push({ path: issue.path, to: Number(at), drop: false });
    else if (issue.expected === 'boolean' && (at === 'true' || at === 'false'))
      fixes.push({ path: issue.path, to: at === 'true', drop: false });
  }
  if (fixes.length === 0) return undefined;
  const copy = structuredClone(value);
  for (const fix of fixes) {
    if (fix.drop) dropAt(copy, fix.path);
    else setAt(copy, fix.path, fix.to);
  }
  return copy;
}

/**
 * Sets aside the deepest part of the first failing issue's path whose removal clears that issue without the
 * schema then missing it: an optional field, a nullable one (left null), else the array item holding it.
 */
function degradeFirst<S extends z.ZodType>(
  schema: S,
  value: unknown,
  issues: z.core.$ZodIssue[],
): { value: unknown; parsed: z.ZodSafeParseResult<z.output<S>> } | undefined {
  for (const issue of issues) {
    for (let depth = issue.path.length; depth >= 1; depth--) {
      const path = issue.path.slice(0, depth);
      for (const leaveNull of [false, true]) {
        const candidate = setAside(value, path, leaveNull);
        if (candidate === undefined) continue;
        const parsed = schema.safeParse(candidate);
        if (parsed.success || !parsed.error.issues.some((i) => startsWith(i.path, path) || startsWith(path, i.path)))
          return { value: candidate, parsed };
      }
    }
  }
  return undefined;
}

/**
 * A copy with the value at `path` moved under `unreadFields` of the nearest object (`leaveNull`: null left in its
 * place); undefined if there is no such object.
 */
function setAside(root: unknown, path: Path, leaveNull: boolean): unknown {
  const copy = structuredClone(root);
  const parent = valueAt(copy, path.slice(0, -1));
  const key = path[path.length - 1]!;
  if (isRecord(parent) && typeof key === 'string' && key !== UNREAD_FIELDS) {
    unreadOf(parent)[key] = parent[key];
    if (leaveNull) parent[key] = null;
    else delete parent[key];
    return copy;
  }
  if (Array.isArray(parent) && typeof key === 'number' && path.length >= 2 && !leaveNull) {
    const holder = valueAt(copy, path.slice(0, -2));
    const arrayKey = path[path.length - 2]!;
    if (!isRecord(holder) || typeof arrayKey !== 'string') return undefined;
    const [item] = parent.splice(key, 1);
    const unread = unreadOf(holder);
    unread[arrayKey] = [...(Array.isArray(unread[arrayKey]) ? unread[arrayKey] : []), item];
    return copy;
  }
  return undefined;
}

function unreadOf(holder: Record<string, unknown>): Record<string, unknown> {
  const existing = holder[UNREAD_FIELDS];
  if (isRecord(existing)) return existing;
  const fresh: Record<string, unknown> = {};
  holder[UNREAD_FIELDS] = fresh;
  return fresh;
}

function unwrapPage(schema: z.ZodType, json: unknown): unknown {
  if (!(schema instanceof z.ZodArray) || !isRecord(json)) return json;
  for (const key of PAGE_KEYS) if (Array.isArray(json[key])) return json[key];
  return json;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function startsWith(path: Path, prefix: Path): boolean {
  return prefix.length <= path.length && prefix.every((key, i) => path[i] === key);
}

function valueAt(root: unknown, path: Path): unknown {
  let at = root;
  for (const key of path) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}

function setAt(root: unknown, path: Path, to: unknown): void {
  const parent = valueAt(root, path.slice(0, -1));
  if (typeof parent === 'object' && parent !== null)
    (parent as Record<PropertyKey, unknown>)[path[path.length - 1]!] = to;
}

function dropAt(root: unknown, path: Path): void {
  if (path.length === 0) return;
  const parent = valueAt(root, path.slice(0, -1));
  if (!isRecord(parent)) return;
  delete parent[path[path.length - 1] as string];
}
