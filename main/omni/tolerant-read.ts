import { z } from 'zod';

/**
 * The one place where production answers are read leniently, whatever the endpoint. The zod contract stays the
 * source of types; this only reshapes what a service may send that the spec does not forbid:
 * - a list wrapped in a page object (`{ content: [...], totalElements }`, `items`, `data`, `results`, `records`);
 * - `null` for an optional field (Java services): dropped where, and only where, the schema rejects the null.
 */
const PAGE_KEYS = ['content', 'items', 'data', 'results', 'records', 'elements'] as const;
const MAX_PASSES = 64;

export function readTolerantly<S extends z.ZodType>(schema: S, json: unknown): z.ZodSafeParseResult<z.output<S>> {
  let value = unwrapPage(schema, json);
  let parsed = schema.safeParse(value);
  // Each pass drops the nulls the schema rejected; a required field stays rejected, so the loop ends.
  for (let pass = 0; !parsed.success && pass < MAX_PASSES; pass++) {
    const nullPaths = parsed.error.issues
      .filter((i) => i.code === 'invalid_type' && valueAt(value, i.path) === null)
      .map((i) => i.path);
    if (nullPaths.length === 0) break;
    value = structuredClone(value);
    for (const path of nullPaths) dropAt(value, path);
    parsed = schema.safeParse(value);
  }
  return parsed;
}

function unwrapPage(schema: z.ZodType, json: unknown): unknown {
  if (!(schema instanceof z.ZodArray) || typeof json !== 'object' || json === null || Array.isArray(json)) return json;
  const record = json as Record<string, unknown>;
  for (const key of PAGE_KEYS) if (Array.isArray(record[key])) return record[key];
  return json;
}

function valueAt(root: unknown, path: PropertyKey[]): unknown {
  let at = root;
  for (const key of path) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}

function dropAt(root: unknown, path: PropertyKey[]): void {
  if (path.length === 0) return;
  const parent = valueAt(root, path.slice(0, -1));
  if (typeof parent !== 'object' || parent === null || Array.isArray(parent)) return;
  delete (parent as Record<PropertyKey, unknown>)[path[path.length - 1]!];
}
