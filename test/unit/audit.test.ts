import { describe, expect, it } from 'vitest';
import { canonicalJson, createAuditTrail, GENESIS_HASH } from '../../main/audit-trail';
import type { AuditEntry, JsonStore } from '../../main/ipc/context';

function memoryStore(): JsonStore & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return {
    data,
    get: <T>(k: string) => structuredClone(data.get(k)) as T | undefined,
    set: (k, v) => void data.set(k, structuredClone(v)),
    delete: (k) => void data.delete(k),
  };
}

describe('audit trail', () => {
  it('chains entries with SHA-256 from the genesis hash and filters by interview', async () => {
    const store = memoryStore();
    let t = Date.parse('2026-01-01T00:00:00Z');
    const trail = createAuditTrail({ store, environment: () => 'demo', now: () => (t += 1000) });
    const a = await trail.append({ interviewId: 'i1', action: 'opened', detail: {} });
    const b = await trail.append({ interviewId: 'i2', action: 'played', detail: { at: 3.5 } });
    const c = await trail.append({ interviewId: 'i1', action: 'decided', detail: { decision: 'approve', reason: 'ok' } });
    expect(a).toMatchObject({ seq: 1, prevHash: GENESIS_HASH, environment: 'demo', at: '2026-01-01T00:00:01.000Z' });
    expect(b.prevHash).toBe(a.hash);
    expect(c.prevHash).toBe(b.hash);
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
    expect((await trail.list({ interviewId: 'i1' })).map((e) => e.seq)).toEqual([1, 3]);
    expect(await trail.verify()).toEqual({ ok: true });
  });

  it('serializes concurrent appends into one unbroken chain', async () => {
    const trail = createAuditTrail({ store: memoryStore(), environment: () => 'demo' });
    await Promise.all(Array.from({ length: 25 }, (_, i) => trail.append({ action: 'noted', detail: { i } })));
    const entries = await trail.list();
    expect(entries.map((e) => e.seq)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(await trail.verify()).toEqual({ ok: true });
  });

  it.each([
    ['an edited detail', (entries: AuditEntry[]) => void (entries[1]!.detail = { decision: 'reject' })],
    ['a removed entry', (entries: AuditEntry[]) => void entries.splice(1, 1)],
    ['a re-hashed edit that breaks the next link', (entries: AuditEntry[]) => void (entries[1]!.hash = 'f'.repeat(64))],
    ['reordered entries', (entries: AuditEntry[]) => void entries.reverse()],
  ])('verify() reports %s at the first broken link', async (_name, tamper) => {
    const store = memoryStore();
    const trail = createAuditTrail({ store, environment: () => 'demo' });
    for (const decision of ['approve', 'approve', 'approve']) await trail.append({ action: 'decided', detail: { decision } });
    const entries = store.get<AuditEntry[]>('auditTrail')!;
    tamper(entries);
    store.set('auditTrail', entries);
    const result = await trail.verify();
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.brokenAt).toBeLessThanOrEqual(2);
  });

  it('hashes the same content the same way whatever the key order', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe('{"a":{"c":null,"d":[1,{"x":1,"y":2}]},"b":1}');
  });
});
