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
 *   An item of a top-level list that does not fit is kept under `unreadFields.items` of the list read (see
 *   `UNREAD_ITEMS`); a list none of whose items fits is refused.
 * Times (ISO, epoch ms or s) and enum values newer than the spec are read by the contract itself (`Timestamp`,
 * `openEnum`).
 *
 * Cost (red team 17): each pass handles every issue of one parse together, copying only the objects on the
 * changed paths, so a pass costs one parse of the answer whatever the number of issues. An answer needs about two
 * passes per level of the contract's nesting (mend, set the field aside, else its holder), never one per issue.
 */
const PAGE_KEYS = ['content', 'items', 'data', 'results', 'records', 'elements'] as const;

/** Where, under `unreadFields` of a top-level list read, its items that do not fit are kept as they came. */
export const UNREAD_ITEMS = 'items';

/**
 * Hard work budget, in parses of the whole answer. The contracts nest a few levels, so a readable answer needs far
 * fewer; this only bounds what a pathological answer (or a contract that never settles) may cost main's thread.
 */
const MAX_PARSES = 32;
/** Issues one parse may raise and still be read: an answer of the contract's shape has a few, not thousands. */
const MAX_ISSUES = 10_000;

type Path = PropertyKey[];
type Issue = z.core.$ZodIssue;
type Container = Record<PropertyKey, unknown> | unknown[];

/** One way to make an issue go away; the steps of an issue's ladder go from the least to the most set aside. */
type Step =
  | { kind: 'mend'; path: Path; to: unknown }
  | { kind: 'drop'; path: Path }
  | { kind: 'aside'; path: Path; leaveNull: boolean }
  | { kind: 'asideItem'; path: Path }
  /** What was set aside in a dictionary's own `unreadFields` (a z.record takes no such key) moved to its holder's. */
  | { kind: 'hoist'; path: Path };

/** An issue of the answer as it came (paths in its coordinates) and the step now taken for it. */
interface Decision {
  issue: Issue;
  steps: Step[];
  at: number;
}

interface Candidate {
  value: unknown;
  /** Issue path in the candidate → path in the answer as it came (items set aside shift the ones after them). */
  toSource: (path: Path) => Path;
}

export function readTolerantly<S extends z.ZodType>(schema: S, json: unknown): z.ZodSafeParseResult<z.output<S>> {
  const source = unwrapPage(schema, json);
  const listRoot = schema instanceof z.ZodArray && Array.isArray(source);
  const decisions: Decision[] = [];
  let candidate: Candidate = { value: source, toSource: (path) => path };
  let parsed = schema.safeParse(source);
  // A list read item by item: each item's quirks are handled on that item alone, so what a list's issues cost stays
  // with each item (200,000 records of one quirk each held 1.5 GB as one answer's issues; red team 18).
  if (!parsed.success && listRoot) return readItems(schema as unknown as z.ZodArray, source as unknown[]);
  for (let parses = 1; !parsed.success; parses++) {
    const issues = parsed.error.issues.map((issue) => ({ ...issue, path: candidate.toSource(issue.path) }));
    if (issues.length > MAX_ISSUES)
      return refused([
        {
          code: 'custom',
          path: [],
          message: `${issues.length} fields not in the contract's shape (more than ${MAX_ISSUES}): refused rather than hold the app`,
        },
        ...issues.slice(0, 20),
      ]);
    if (parses >= MAX_PARSES)
      return refused([
        {
          code: 'custom',
          path: [],
          message: `Still not readable after ${MAX_PARSES} passes of setting fields aside; refused rather than hold the app`,
        },
        ...issues,
      ]);
    if (!decide(decisions, issues, source)) return refused(issues);
    candidate = apply(source, decisions);
    parsed = schema.safeParse(candidate.value);
  }
  return parsed;
}

/** A top-level list, each item read on its own; those that do not fit kept aside as they came (`UNREAD_ITEMS`). */
function readItems<T>(schema: z.ZodArray, items: unknown[]): z.ZodSafeParseResult<T> {
  const read: unknown[] = [];
  const aside: unknown[] = [];
  const issues: Issue[] = [];
  const element = schema.element as z.ZodType;
  let lenient = 0;
  for (const [index, item] of items.entries()) {
    const plain = element.safeParse(item);
    if (plain.success) {
      read.push(plain.data);
      continue;
    }
    // Reading an item leniently costs tens of microseconds: a list of thousands of quirky items is not the contract's
    // shape, and a 31 MB one would have held main for seconds.
    if (++lenient > MAX_ISSUES)
      return refused([
        {
          code: 'custom',
          path: [],
          message: `more than ${MAX_ISSUES} items not in the contract's shape: refused rather than hold the app`,
        },
        ...issues,
      ]);
    const one = readTolerantly(element, item);
    if (one.success) read.push(one.data);
    else {
      aside.push(item);
      if (issues.length < 100)
        issues.push(...one.error.issues.map((issue) => ({ ...issue, path: [index, ...issue.path] })));
    }
  }
  // Not one item read: more likely another shape altogether than a few odd records, so say so.
  if (read.length === 0) return refused(issues);
  if (aside.length > 0)
    // Not enumerable: equality and iteration over the list see only the items read.
    Object.defineProperty(read, UNREAD_FIELDS, {
      value: { [UNREAD_ITEMS]: aside },
      enumerable: false,
      writable: true,
      configurable: true,
    });
  return { success: true, data: read as T };
}

function refused<T>(issues: Issue[]): z.ZodSafeParseResult<T> {
  return { success: false, error: new z.ZodError(issues) as z.ZodError<T> };
}

/**
 * Takes the next step for every decision whose last step did not clear its issue, and a first step for every new
 * issue. False when there is nothing left to try: an issue with no step left, or no progress at all.
 */
function decide(decisions: Decision[], issues: Issue[], source: unknown): boolean {
  const issueAt = new Set(issues.map((issue) => keyOf(issue.path)));
  const issueUnder = prefixKeys(issues.map((issue) => issue.path));
  let progressed = false;
  for (const decision of decisions) {
    const { path } = decision.steps[decision.at]!;
    const cleared = !issueUnder.has(keyOf(path)) && !prefixesOf(path).some((prefix) => issueAt.has(keyOf(prefix)));
    if (cleared) continue;
    decision.at++;
    if (decision.at >= decision.steps.length) return false;
    progressed = true;
  }
  const targets = decisions.map((d) => d.steps[d.at]!.path);
  const targetAt = new Set(targets.map(keyOf));
  const targetUnder = prefixKeys(targets);
  for (const issue of issues) {
    const handled =
      targetUnder.has(keyOf(issue.path)) || prefixesOf(issue.path).some((prefix) => targetAt.has(keyOf(prefix)));
    if (handled) continue;
    const steps = ladder(issue, source);
    if (steps.length === 0) return false;
    decisions.push({ issue, steps, at: 0 });
    const target = steps[0]!.path;
    targetAt.add(keyOf(target));
    for (const prefix of [...prefixesOf(target), target]) targetUnder.add(keyOf(prefix));
    progressed = true;
  }
  return progressed;
}

/**
 * The ways to clear one issue, tried in turn over the passes: mend the value; else set aside the deepest part of its
 * path the schema may go without: an optional field, a nullable one (left null), else the array item holding it.
 */
function ladder(issue: Issue, source: unknown): Step[] {
  const steps: Step[] = [];
  const { path } = issue;
  // Our own `unreadFields` refused where it was put: a dictionary of links takes no such key, and the whole dictionary
  // went aside for one odd link (red team 18: the contracts screen empty). Its holder keeps it, under its name.
  // Only the app's own: a dictionary entry the service named `unreadFields` is one of its entries (red team 19).
  const dictionary = path.length >= 2 ? valueAt(source, path.slice(0, -1)) : undefined;
  if (
    path.length >= 2 &&
    path[path.length - 1] === UNREAD_FIELDS &&
    typeof path[path.length - 2] === 'string' &&
    isRecord(valueAt(source, path.slice(0, -2))) &&
    isRecord(dictionary) &&
    !Object.hasOwn(dictionary, UNREAD_FIELDS)
  )
    steps.push({ kind: 'hoist', path });
  const mended = mendOf(issue, source);
  if (mended) steps.push(mended);
  for (let depth = path.length; depth >= 1; depth--) {
    const at = path.slice(0, depth);
    const parent = valueAt(source, at.slice(0, -1));
    const key = at[depth - 1]!;
    if (isRecord(parent) && typeof key === 'string' && key !== UNREAD_FIELDS) {
      // A null: dropping it is the mend already tried, and leaving it null is what failed.
      if (parent[key] === null && mended?.kind === 'drop' && depth === path.length) continue;
      if (Object.hasOwn(parent, key)) steps.push({ kind: 'aside', path: at, leaveNull: false });
      steps.push({ kind: 'aside', path: at, leaveNull: true });
    } else if (Array.isArray(parent) && typeof key === 'number') {
      // A top-level list is read item by item (readItems): here, a list a field holds.
      const holdsItems = depth > 1 && isRecord(valueAt(source, at.slice(0, -2))) && typeof at[depth - 2] === 'string';
      if (holdsItems) steps.push({ kind: 'asideItem', path: at });
    }
  }
  return steps;
}

/** Drops a rejected null, converts a text/number/boolean mix-up; undefined when the issue is not one of those. */
function mendOf(issue: Issue, source: unknown): Step | undefined {
  const { path } = issue;
  if (issue.code !== 'invalid_type' || path.length === 0) return undefined;
  const at = valueAt(source, path);
  if (at === null) return isRecord(valueAt(source, path.slice(0, -1))) ? { kind: 'drop', path } : undefined;
  if (issue.expected === 'string' && typeof at === 'number' && Number.isFinite(at))
    return { kind: 'mend', path, to: String(at) };
  if (issue.expected === 'number' && typeof at === 'string' && /^-?\d+(\.\d+)?$/.test(at.trim()))
    return { kind: 'mend', path, to: Number(at) };
  if (issue.expected === 'boolean' && (at === 'true' || at === 'false'))
    return { kind: 'mend', path, to: at === 'true' };
  return undefined;
}

/** The answer with every decision's current step applied, copied only along the changed paths. */
function apply(source: unknown, decisions: Decision[]): Candidate {
  const draft = new Draft(source);
  // Outermost first, so a step inside something already set aside is skipped.
  const steps = decisions.map((d) => d.steps[d.at]!).sort((a, b) => a.path.length - b.path.length);
  const setAside = new Set<string>();
  const itemsAside = new Map<string, { arrayPath: Path; indices: Set<number> }>();
  const hoists: Step[] = [];
  for (const step of steps) {
    if (step.kind === 'hoist') {
      hoists.push(step);
      continue;
    }
    if ([...prefixesOf(step.path), step.path].some((prefix) => setAside.has(keyOf(prefix)))) continue;
    const parentPath = step.path.slice(0, -1);
    const key = step.path[step.path.length - 1]!;
    if (step.kind === 'asideItem') {
      setAside.add(keyOf(step.path));
      const arrayKey = keyOf(parentPath);
      const entry = itemsAside.get(arrayKey) ?? { arrayPath: parentPath, indices: new Set<number>() };
      entry.indices.add(key as number);
      itemsAside.set(arrayKey, entry);
      continue;
    }
    const parent = draft.writable(parentPath);
    if (!parent || (!isRecord(parent) && step.kind !== 'mend')) continue;
    if (step.kind !== 'mend') setAside.add(keyOf(step.path));
    if (step.kind === 'mend') put(parent, key, step.to);
    else if (step.kind === 'drop') delete (parent as Record<PropertyKey, unknown>)[key];
    else {
      const sourceParent = valueAt(source, parentPath) as Record<PropertyKey, unknown>;
      if (Object.hasOwn(sourceParent, key))
        put(draft.unreadOf(parent as Record<string, unknown>), key, sourceParent[key]);
      if (step.leaveNull) put(parent, key, null);
      else delete (parent as Record<PropertyKey, unknown>)[key];
    }
  }

  // Once every field is aside: a dictionary's moved to its holder's, under the dictionary's name.
  for (const { path } of hoists) {
    const dictionaryPath = path.slice(0, -1);
    const name = dictionaryPath[dictionaryPath.length - 1] as string;
    const dictionary = draft.writable(dictionaryPath);
    const moved = isRecord(dictionary) ? dictionary[UNREAD_FIELDS] : undefined;
    const holder = draft.writable(dictionaryPath.slice(0, -1));
    if (!isRecord(dictionary) || !isRecord(moved) || !isRecord(holder)) continue;
    delete dictionary[UNREAD_FIELDS];
    const unread = draft.unreadOf(holder);
    const earlier = unread[name];
    put(unread, name, { ...(isRecord(earlier) ? earlier : {}), ...moved });
  }

  // Items last and innermost lists first, so every path above still counts items as they came.
  const kept = new Map<string, number[]>();
  const lists = [...itemsAside.entries()].sort(([, a], [, b]) => b.arrayPath.length - a.arrayPath.length);
  for (const [arrayKey, { arrayPath, indices }] of lists) {
    const asCame = valueAt(source, arrayPath) as unknown[];
    const current = valueAt(draft.root, arrayPath);
    if (!Array.isArray(current)) continue;
    const keep = current.map((_, i) => i).filter((i) => !indices.has(i));
    const aside = [...indices].sort((a, b) => a - b).map((i) => asCame[i]);
    kept.set(arrayKey, keep);
    draft.replace(
      arrayPath,
      keep.map((i) => current[i]),
    );
    const unread = draft.unreadOf(draft.writable(arrayPath.slice(0, -1)) as Record<string, unknown>);
    const listName = arrayPath[arrayPath.length - 1] as string;
    const earlier = unread[listName];
    put(unread, listName, [...(Array.isArray(earlier) ? earlier : []), ...aside]);
  }

  const toSource = (path: Path): Path => {
    const out: Path = [];
    for (const key of path) {
      const keptHere = typeof key === 'number' ? kept.get(keyOf(out)) : undefined;
      out.push(keptHere?.[key as number] ?? key);
    }
    return out;
  };
  return { value: draft.root, toSource };
}

/** Copy-on-write over the answer as it came: a container is copied once, when something under it first changes. */
class Draft {
  private readonly copies = new WeakSet<object>();
  constructor(public root: unknown) {}

  /** The container at `path`, itself and every container above it copied if not already; undefined if none. */
  writable(path: Path): Container | undefined {
    this.root = this.own(this.root);
    let at = this.root;
    for (const key of path) {
      if (!isContainer(at)) return undefined;
      const child = (at as Record<PropertyKey, unknown>)[key];
      const copy = this.own(child);
      if (copy !== child) put(at, key, copy);
      at = copy;
    }
    return isContainer(at) ? at : undefined;
  }

  replace(path: Path, value: unknown): void {
    if (path.length === 0) {
      this.root = value;
      return;
    }
    const parent = this.writable(path.slice(0, -1));
    if (parent) put(parent, path[path.length - 1]!, value);
  }

  /** The holder's `unreadFields`, a copy of its own: the one that came with the answer is left untouched. */
  unreadOf(holder: Record<string, unknown>): Record<string, unknown> {
    const existing = holder[UNREAD_FIELDS];
    const unread = (isRecord(existing) ? this.own(existing) : {}) as Record<string, unknown>;
    if (unread !== existing) {
      this.copies.add(unread);
      put(holder, UNREAD_FIELDS, unread);
    }
    return unread;
  }

  private own(value: unknown): unknown {
    if (!isContainer(value) || this.copies.has(value)) return value;
    const copy = Array.isArray(value) ? value.slice() : { ...value };
    this.copies.add(copy);
    return copy;
  }
}

/** Defined, not assigned: a field named `__proto__` (JSON.parse makes it an own field) stays a field. */
function put(container: Container, key: PropertyKey, value: unknown): void {
  Object.defineProperty(container, key, { value, writable: true, enumerable: true, configurable: true });
}

function unwrapPage(schema: z.ZodType, json: unknown): unknown {
  if (!(schema instanceof z.ZodArray) || !isRecord(json)) return json;
  for (const key of PAGE_KEYS) if (Array.isArray(json[key])) return json[key];
  return json;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isContainer = (v: unknown): v is Container => typeof v === 'object' && v !== null;

/** A path as a map key: `1` (an index) and `'1'` (a field) stay apart. */
const keyOf = (path: Path): string => JSON.stringify(path.map((key) => (typeof key === 'symbol' ? String(key) : key)));

/** The proper prefixes of a path, the empty one included. */
function prefixesOf(path: Path): Path[] {
  return path.map((_, depth) => path.slice(0, depth));
}

/** Every prefix of every path, the paths themselves included. */
function prefixKeys(paths: Path[]): Set<string> {
  const keys = new Set<string>();
  for (const path of paths) for (let depth = 0; depth <= path.length; depth++) keys.add(keyOf(path.slice(0, depth)));
  return keys;
}

function valueAt(root: unknown, path: Path): unknown {
  let at = root;
  for (const key of path) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}
