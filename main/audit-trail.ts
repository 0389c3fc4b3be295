import { createHash } from 'node:crypto';
import type { AuditAction, AuditEntry, AuditTrail, JsonStore } from './ipc/context';

/**
 * Append-only audit trail with a SHA-256 hash chain: each entry's hash covers its content and the previous hash,
 * so editing or removing any past entry breaks every link after it (verify() reports the first).
 */
export const GENESIS_HASH = '0'.repeat(64);
const STORE_KEY = 'auditTrail';

/** JSON with object keys sorted at every level, so the same content always hashes the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    return `{${Object.keys(obj)
      .filter((k) => obj[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function entryHash(entry: Omit<AuditEntry, 'hash'>): string {
  return createHash('sha256').update(canonicalJson(entry)).digest('hex');
}

export function createAuditTrail(opts: { store: JsonStore; environment: () => string; now?: () => number }): AuditTrail {
  const now = opts.now ?? Date.now;
  const read = (): AuditEntry[] => opts.store.get<AuditEntry[]>(STORE_KEY) ?? [];
  // Appends are serialized so two concurrent ones never chain onto the same predecessor.
  let queue: Promise<unknown> = Promise.resolve();

  return {
    append({ interviewId, action, detail }) {
      const run = async (): Promise<AuditEntry> => {
        const entries = read();
        const last = entries[entries.length - 1];
        // A JSON round trip keeps exactly what will be stored (drops undefined, functions), so the hash matches on verify.
        const body: Omit<AuditEntry, 'hash'> = {
          seq: (last?.seq ?? 0) + 1,
          at: new Date(now()).toISOString(),
          environment: opts.environment(),
          ...(interviewId !== undefined ? { interviewId } : {}),
          action: action as AuditAction,
          detail: JSON.parse(JSON.stringify(detail ?? {})) as Record<string, unknown>,
          prevHash: last?.hash ?? GENESIS_HASH,
        };
        const entry: AuditEntry = { ...body, hash: entryHash(body) };
        opts.store.set(STORE_KEY, [...entries, entry]);
        return entry;
      };
      const result = queue.then(run, run);
      queue = result.catch(() => undefined);
      return result;
    },
    async list(filter) {
      const entries = read();
      return filter?.interviewId === undefined ? entries : entries.filter((e) => e.interviewId === filter.interviewId);
    },
    async verify() {
      let prev = GENESIS_HASH;
      let expectedSeq = 1;
      for (const entry of read()) {
        const { hash, ...body } = entry;
        if (entry.seq !== expectedSeq || entry.prevHash !== prev || entryHash(body) !== hash) return { ok: false, brokenAt: expectedSeq };
        prev = hash;
        expectedSeq += 1;
      }
      return { ok: true };
    },
  };
}
