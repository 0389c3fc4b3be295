import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { ApiKeyRecord } from '../../../common/omni';
import { apiKeyList, toApiKeyRows } from '../../../main/apikeys/rows';
import { endpoints } from '../../../main/omni/endpoints';
import { readTolerantly } from '../../../main/omni/tolerant-read';
import { ensureMasked } from '../../../main/omni/answer';

describe('API key rows', () => {
  it('keeps masked keys, masks a key that arrives in full, and never passes secret-looking fields', () => {
    const { keys, extraColumns } = toApiKeyRows([
      {
        id: 'a',
        name: 'Main',
        maskedKey: 'demo-fin••••9b2e',
        createdAt: '2025-01-01T00:00:00Z',
        enabled: true,
        organizationId: 'org-1',
        apiKey: 'demo-full-secret-value',
        secret: 's3cr3t',
      },
      { id: 'b', maskedKey: 'plainfullkeyvalue1234', scopes: ['read', 'write'], token: 'tkn' },
    ]);
    expect(keys[0]).toEqual({
      id: 'a',
      name: 'Main',
      maskedKey: 'demo-fin••••9b2e',
      createdAt: '2025-01-01T00:00:00Z',
      enabled: true,
      extra: { organizationId: 'org-1' },
    });
    expect(keys[1]).toEqual({ id: 'b', maskedKey: 'plai••••1234', extra: { scopes: '["read","write"]' } });
    expect(extraColumns).toEqual(['organizationId', 'scopes']);
    expect(JSON.stringify(keys)).not.toMatch(/demo-full-secret-value|s3cr3t|tkn/);
  });

  it('masks short values entirely', () => {
    expect(ensureMasked('abc')).toBe('••••');
    expect(ensureMasked('****1234')).toBe('****1234');
  });
});

describe('a listing with records that are no keys (red team 17)', () => {
  it('lists the readable keys, counts the others and keeps them, secrets redacted, in the raw view', () => {
    const answer = [
      { id: 'k-1', name: 'Back office', maskedKey: 'demo-fin••••9b2e', enabled: true },
      { name: 'no id here', value: 'sk-live-1234567890abcdef' },
      { id: 'k-2', name: 'Kiosk', maskedKey: 'demo-kio••••11aa', enabled: false },
    ];
    const read = readTolerantly(endpoints.listApiKeys.response as z.ZodType, answer);
    expect(read.success).toBe(true);
    const list = apiKeyList(read.data as ApiKeyRecord[]);
    expect(list.keys.map((k) => k.id)).toEqual(['k-1', 'k-2']);
    expect(list.unreadRecords).toBe(1);
    const raw = JSON.stringify(list.answer.body);
    expect(raw).toContain('no id here');
    expect(raw).not.toContain('sk-live-1234567890abcdef');
  });
});
