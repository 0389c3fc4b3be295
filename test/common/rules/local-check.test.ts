import { describe, expect, it } from 'vitest';
import { describeCurp, describeRfc } from '../../../common/rules/local-check';

describe('local RFC / CURP checks in both languages', () => {
  it.each([
    ['GODE561231GR8', true, undefined],
    ['XAXX010101000', true, undefined],
    ['GODE56123', false, 'length'],
    ['GOD3561231GR8', false, 'characters'],
    ['GODE561331GR8', false, 'date'],
    ['GODE561231GR9', false, 'checkDigit'],
  ])('RFC %s', (rfc, valid, reason) => {
    const check = describeRfc(rfc);
    expect(check.valid).toBe(valid);
    if (!check.valid) {
      expect(check.reason).toBe(reason);
      expect(check.message.es).not.toBe(check.message.en);
    }
  });

  it.each([
    ['HEGG560427MVZRRL04', true, undefined],
    ['HEGG560427MVZRRL0', false, 'length'],
    ['HEGG5604271VZRRL04', false, 'characters'],
    ['HEGG560427QVZRRL04', false, 'sex'],
    ['HEGG560427MZZRRL04', false, 'state'],
    ['HEGG560427MVZRRL05', false, 'checkDigit'],
  ])('CURP %s', (curp, valid, reason) => {
    const check = describeCurp(curp);
    expect(check.valid).toBe(valid);
    if (!check.valid) expect(check.reason).toBe(reason);
    else expect(check.summary.es).toContain('Veracruz');
  });
});
