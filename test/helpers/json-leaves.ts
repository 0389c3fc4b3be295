/** Walking a JSON answer leaf by leaf, to check that every value the service sent arrived somewhere. */

export type Leaf = [path: string[], value: string | number | boolean];

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every text, number and boolean of a JSON answer with its path; null is how a Java service says "absent". */
export function leavesOf(value: unknown, path: string[] = []): Leaf[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => leavesOf(v, [...path, String(i)]));
  if (isRecord(value)) return Object.entries(value).flatMap(([k, v]) => leavesOf(v, [...path, k]));
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return [[path, value]];
  return [];
}

export function at(value: unknown, path: string[]): unknown {
  let here = value;
  for (const key of path) here = typeof here === 'object' && here !== null ? (here as never)[key] : undefined;
  return here;
}

/** The same value, or the same read as the contract's type: an epoch time as an ISO one, a number id as text. */
export function sameValue(sent: unknown, read: unknown): boolean {
  if (sent === read) return true;
  if (typeof sent === 'number' && typeof read === 'string')
    return read === String(sent) || [sent, sent * 1000].includes(Date.parse(read));
  return typeof sent === 'string' && typeof read !== 'object' && String(read) === sent;
}
