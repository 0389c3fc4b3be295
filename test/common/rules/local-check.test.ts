import { describe, expect, it } from 'vitest';
import { describeCurp, describeRfc } from '../../../common/rules/local-check';

describe('local RFC / CURP checks in both languages', () => {
  it.each([
    ['GODE561231GR8', true, undefined],
    ['XAXX010101000', true, undefined],
    ['GODE56123', false, 'length'],
    ['GOD3561231GR8', false, 'characters'],
    ['GODE561331GR8', false, 'date'],
    ['GODE 561231 GR8', true, undefined],
    ['MAB-930714-8T4', true, undefined],
    ['GODE 561231 GR', false, 'length'],
  ])('RFC %s', (rfc, valid, reason) => {
    const check = describeRfc(rfc);
    expect(check.valid).toBe(valid);
    if (!check.valid) {
      expect(check.reason).toBe(reason);
      expect(check.message.es).not.toBe(check.message.en);
    }
  });

  it('warns, in both languages, of an RFC check digit that does not match, and leaves it to the service', () => {
    const check = describeRfc('SOTO 800101 110');
    expect(check).toMatchObject({ valid: true, value: 'SOTO800101110', warning: { position: 12 } });
    if (!check.valid || !check.warning) throw new Error('expected a warning');
    expect(check.warning.message.en).toBe(
      'The check digit is "0" where the other characters give "9". SAT has issued some RFCs like this; the service decides.',
    );
    expect(check.warning.message.es).toBe(
      'El dígito verificador es "0" y los demás caracteres dan "9". El SAT ha emitido algunos RFC así; el servicio decide.',
    );
    expect(check.summary.en).toBe('The format is correct (person).');
    expect(describeRfc('GODE561231GR8')).not.toHaveProperty('warning');
  });

  it.each([
    ['HEGG560427MVZRRL04', true, undefined],
    ['HEGG 560427 MVZRRL04', true, undefined],
    ['HEGG-560427-MVZ-RRL-04', true, undefined],
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
