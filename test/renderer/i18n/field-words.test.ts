import { describe, expect, it } from 'vitest';
import { readableName } from '../../../renderer/i18n/field-words';

describe('readableName', () => {
  it('turns a field name the app has no words for into words', () => {
    expect(readableName('birthPlace')).toBe('Birth place');
    expect(readableName('birth_place')).toBe('Birth place');
    expect(readableName('BIRTH_PLACE')).toBe('Birth place');
    expect(readableName('NOT_COMPARED')).toBe('Not compared');
    expect(readableName('organizationId')).toBe('Organization ID');
    expect(readableName('validRFC')).toBe('Valid RFC');
    expect(readableName('address.line1')).toBe('Address line1');
    expect(readableName('')).toBe('');
  });
});
