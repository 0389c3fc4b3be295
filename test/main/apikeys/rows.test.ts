import { describe, expect, it } from 'vitest';
import { toApiKeyRows } from '../../../main/apikeys/rows';
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
