import type { CrossDocRow } from '../../common/ipc/interview';

const MATCH_WORDS = /^(match|matched|ok|pass|passed|equal|same|true|success)$/i;
const MISMATCH_WORDS = /^(mismatch|no[_ -]?match|fail|failed|different|false|error)$/i;

/**
 * A status that says neither match nor mismatch (NOT_COMPARED) wins over `match: false`: a field that was not
 * compared did not fail to match, and calling it a mismatch would send the analyst looking for a difference.
 */
function verdictOf(entry: Record<string, unknown>): CrossDocRow['verdict'] {
  if (typeof entry.status === 'string' && entry.status !== '') {
    if (MATCH_WORDS.test(entry.status)) return 'match';
    if (MISMATCH_WORDS.test(entry.status)) return 'mismatch';
    return 'unknown';
  }
  if (typeof entry.match === 'boolean') return entry.match ? 'match' : 'mismatch';
  return 'unknown';
}

export function readable(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return '—';
  if (typeof value === 'string') return value === '' ? '""' : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

function flatten(prefix: string, value: unknown, out: [string, string][], depth: number) {
  if (value && typeof value === 'object' && !Array.isArray(value) && depth < 3) {
    const entries = Object.entries(value);
    if (entries.length === 0) out.push([prefix, '{}']);
    for (const [k, v] of entries) flatten(prefix ? `${prefix}.${k}` : k, v, out, depth + 1);
  } else out.push([prefix, readable(value)]);
}

/** Rows for every field; known keys (`match`, `status`, `score`, `values`) are read, the rest kept as details. */
export function crossDocRows(data: Record<string, unknown>): CrossDocRow[] {
  return Object.entries(data).map(([field, raw]) => {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw))
      return { field, verdict: 'unknown', details: [['value', readable(raw)]] };
    const entry = raw as Record<string, unknown>;
    const details: [string, string][] = [];
    for (const [k, v] of Object.entries(entry)) {
      if (k === 'match' || k === 'status' || k === 'score') continue;
      flatten(k === 'values' ? '' : k, v, details, k === 'values' ? 1 : 0);
    }
    return {
      field,
      verdict: verdictOf(entry),
      ...(typeof entry.score === 'number' ? { score: entry.score } : {}),
      ...(typeof entry.status === 'string' ? { status: entry.status } : {}),
      details,
    };
  });
}
