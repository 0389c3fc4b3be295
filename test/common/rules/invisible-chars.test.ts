import { describe, expect, it } from 'vitest';
import { normalizeCurp } from '../../../common/rules/curp';
import { describeCurp, describeRfc } from '../../../common/rules/local-check';
import { invisibleCharacters, normalizeRfc } from '../../../common/rules/rfc';

// Pasted with the code and unseen: zero-width space and joiner, BOM, right-to-left override, soft hyphen, word joiner;
// and (red team 9) a variation selector, the combining grapheme joiner and the Hangul fillers.
const INVISIBLE = ['\u200b', '\u200d', '\ufeff', '\u202e', '\u00ad', '\u2060', '\ufe0f', '\u034f', '\u3164', '\uffa0'];

describe('RFC and CURP pasted with an invisible character', () => {
  it('are read, counted and sent without it', () => {
    for (const ch of INVISIBLE) {
      const code = `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
      expect(normalizeRfc(`GODE56${ch}1231GR8`), code).toBe('GODE561231GR8');
      expect(describeRfc(`${ch}GODE561231GR8`), code).toMatchObject({ valid: true, value: 'GODE561231GR8' });
      expect(normalizeCurp(`HEGG560427MVZ${ch}RRL04`), code).toBe('HEGG560427MVZRRL04');
      expect(describeCurp(`HEGG560427MVZRRL04${ch}`), code).toMatchObject({ valid: true, value: 'HEGG560427MVZRRL04' });
      expect(invisibleCharacters(`GODE56${ch}1231GR8`)).toEqual([code]);
    }
    // A wrong length counts what shows: 11 or 17 visible characters are "11" or "17", one more with it.
    expect(describeRfc('GODE\u200b561231G')).toMatchObject({
      valid: false,
      message: { en: 'An RFC has 13 characters (person) or 12 (company); this one has 11.' },
    });
    expect(describeCurp('HEGG\u200b560427MVZRRL0')).toMatchObject({
      valid: false,
      message: { en: 'A CURP has 18 characters; this one has 17.' },
    });
  });

  it('fold fullwidth letters and a decomposed Ñ to what they look like', () => {
    expect(normalizeRfc('ＧＯＤＥ５６１２３１ＧＲ８')).toBe('GODE561231GR8');
    expect(normalizeRfc('N\u0303')).toBe('Ñ');
    expect(invisibleCharacters('GODE 561231-GR8\t')).toEqual([]);
  });
});
