import { describe, expect, it } from 'vitest';
import { checkRfc, isValidYyMmDd, rfcCheckDigit } from '../../../common/rules/rfc';

describe('RFC rules', () => {
  it('accepts real person and company RFCs and says which is which', () => {
    expect(checkRfc('GODE561231GR8')).toMatchObject({
      valid: true,
      personType: 'fisica',
      birthOrIncorporation: { year2: 56, month: 12, day: 31 },
    });
    expect(checkRfc(' mag041126gt8 ')).toMatchObject({ valid: true, rfc: 'MAG041126GT8', personType: 'moral' });
    expect(checkRfc('XEXX010101000')).toMatchObject({ valid: true });
  });

  it('computes the check digit with the SAT weights, including 0 and A', () => {
    expect(rfcCheckDigit('GODE561231GR')).toBe('8');
    expect(rfcCheckDigit('MAG041126GT')).toBe('8');
    // Find keys whose digit is A and 0 to prove both special cases are produced and accepted.
    const withDigit = (d: string) => {
      for (let n = 0; n < 100; n++) {
        const key = `GODE5612${String(n).padStart(2, '0')}`;
        if (isValidYyMmDd(56, 12, n) && rfcCheckDigit(`${key}GR`) === d) return `${key}GR${d}`;
      }
      for (const h of [
        'A1',
        'B2',
        'C3',
        'D4',
        'E5',
        'F6',
        'G7',
        'H8',
        'J9',
        'K1',
        'L2',
        'M3',
        'N4',
        'P5',
        'Q6',
        'R7',
        'S8',
      ]) {
        if (rfcCheckDigit(`GODE561231${h}`) === d) return `GODE561231${h}${d}`;
      }
      throw new Error(`no key with digit ${d}`);
    };
    expect(checkRfc(withDigit('A')).valid).toBe(true);
    expect(checkRfc(withDigit('0')).valid).toBe(true);
  });

  it('gives a precise reason for each kind of mistake', () => {
    expect(checkRfc('')).toMatchObject({ valid: false, reason: 'empty' });
    expect(checkRfc('GODE561231GR')).toMatchObject({ valid: false, reason: 'length' });
    expect(checkRfc('GODE561231GR88')).toMatchObject({ valid: false, reason: 'length' });
    expect(checkRfc('G0DE561231GR8')).toMatchObject({ valid: false, reason: 'characters', position: 1 });
    expect(checkRfc('GODE56I231GR8')).toMatchObject({ valid: false, reason: 'characters', position: 6 });
    expect(checkRfc('GODE561231G_8')).toMatchObject({ valid: false, reason: 'characters', position: 11 });
    expect(checkRfc('GODE561231GRB')).toMatchObject({ valid: false, reason: 'characters', position: 12 });
    expect(checkRfc('GODE561301GR8')).toMatchObject({ valid: false, reason: 'date' });
    expect(checkRfc('GODE560230GR8')).toMatchObject({ valid: false, reason: 'date' });
  });

  it('reads RFCs as people write them: spaces, hyphens and dots dropped', () => {
    expect(checkRfc('GODE 561231 GR8')).toMatchObject({ valid: true, rfc: 'GODE561231GR8', personType: 'fisica' });
    expect(checkRfc('MAB-930714-8T4')).toMatchObject({ valid: true, rfc: 'MAB9307148T4', personType: 'moral' });
    expect(checkRfc('mag.041126.gt8')).toMatchObject({ valid: true, rfc: 'MAG041126GT8' });
    expect(checkRfc(' GODE\t561231-GR8 ')).toMatchObject({ valid: true, rfc: 'GODE561231GR8' });
    for (const rfc of ['GODE 561231 GR8', 'MAB-930714-8T4'])
      expect(checkRfc(rfc), rfc).not.toHaveProperty('checkDigit');
    // Formatting never hides a format error.
    expect(checkRfc('GODE 561231 GR')).toMatchObject({ valid: false, reason: 'length' });
    expect(checkRfc('GODE-561331-GR8')).toMatchObject({ valid: false, reason: 'date' });
  });

  it('leaves a check digit that does not match to the service, naming both digits', () => {
    // SAT has issued RFCs like this one (python-stdnum skips the test by default): well formed, digit 0 where 9 is computed.
    expect(checkRfc('SOTO800101110')).toEqual({
      valid: true,
      rfc: 'SOTO800101110',
      personType: 'fisica',
      birthOrIncorporation: { year2: 80, month: 1, day: 1 },
      checkDigit: { found: '0', expected: '9', position: 12 },
    });
    expect(checkRfc('GODE 561231 GR9')).toMatchObject({
      valid: true,
      checkDigit: { found: '9', expected: '8', position: 12 },
    });
  });

  it('accepts 29 February only for years that are leap in 1900s or 2000s', () => {
    expect(isValidYyMmDd(0, 2, 29)).toBe(true); // 2000
    expect(isValidYyMmDd(4, 2, 29)).toBe(true);
    expect(isValidYyMmDd(1, 2, 29)).toBe(false);
    expect(isValidYyMmDd(99, 4, 31)).toBe(false);
  });

  it('lets Ñ and & appear in the name part', () => {
    const key = 'ÑA&A800101AB';
    expect(checkRfc(key + rfcCheckDigit(key))).toMatchObject({ valid: true });
  });
});
