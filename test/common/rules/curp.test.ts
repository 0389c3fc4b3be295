import { describe, expect, it } from 'vitest';
import { CURP_STATES, checkCurp, curpCheckDigit } from '../../../common/rules/curp';
import { curpCases } from '../../../main/demo-server/registries';

describe('CURP rules', () => {
  it('accepts real CURPs and reads birth date, sex and state', () => {
    expect(checkCurp('HEGG560427MVZRRL04')).toEqual({
      valid: true,
      curp: 'HEGG560427MVZRRL04',
      birthDate: '1956-04-27',
      sex: 'M',
      state: 'VZ',
    });
    expect(checkCurp('maar790213hmnrlf03')).toMatchObject({ valid: true, sex: 'H', state: 'MN' });
  });

  it('uses the differentiator to place the birth in the 1900s (digit) or 2000s (letter)', () => {
    const key = 'GOPL050515MDFNRRA';
    expect(checkCurp(key + curpCheckDigit(key))).toMatchObject({ valid: true, birthDate: '2005-05-15' });
    // 29 Feb 1900 did not exist; 29 Feb 2000 did.
    const y1900 = 'GOPL000229MDFNRR0';
    const y2000 = 'GOPL000229MDFNRRA';
    expect(checkCurp(y1900 + curpCheckDigit(y1900))).toMatchObject({ valid: false, reason: 'date' });
    expect(checkCurp(y2000 + curpCheckDigit(y2000))).toMatchObject({ valid: true, birthDate: '2000-02-29' });
  });

  it('gives a precise reason for each kind of mistake', () => {
    expect(checkCurp(' ')).toMatchObject({ valid: false, reason: 'empty' });
    expect(checkCurp('HEGG560427MVZRRL0')).toMatchObject({ valid: false, reason: 'length' });
    expect(checkCurp('HBGG560427MVZRRL04')).toMatchObject({ valid: false, reason: 'characters', position: 1 });
    expect(checkCurp('HEGG56O427MVZRRL04')).toMatchObject({ valid: false, reason: 'characters', position: 6 });
    expect(checkCurp('HEGG560427MVZRAL04')).toMatchObject({ valid: false, reason: 'characters', position: 14 });
    expect(checkCurp('HEGG560427MVZRRL0X')).toMatchObject({ valid: false, reason: 'characters', position: 17 });
    expect(checkCurp('HEGG561327MVZRRL04')).toMatchObject({ valid: false, reason: 'date' });
    expect(checkCurp('HEGG560427QVZRRL04')).toMatchObject({ valid: false, reason: 'sex', position: 10 });
    expect(checkCurp('HEGG560427MXXRRL04')).toMatchObject({ valid: false, reason: 'state', position: 11 });
    expect(checkCurp('HEGG560427MVZRRL05')).toMatchObject({ valid: false, reason: 'checkDigit', position: 17 });
  });

  it('knows the 32 states and NE', () => {
    expect(Object.keys(CURP_STATES)).toHaveLength(33);
    expect(CURP_STATES.NE).toMatch(/extranjero/);
  });

  it('every CURP the demo registry documents is well formed', () => {
    for (const { curp } of curpCases) expect(checkCurp(curp), curp).toMatchObject({ valid: true });
  });
});
