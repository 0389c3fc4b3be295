import { describe, expect, it } from 'vitest';
import { IMPORT_TEXT_MAX, InterviewId, SessionToken } from '../../../common/ipc/queue';
import type { IpcErrorData } from '../../../common/ipc/define';
import {
  fieldsSayIt,
  issueAt,
  readTextFile,
  schemaReason,
  textFileProblemWords,
} from '../../../renderer/ui/input-checks';

/** Bad input said where it enters (red team 20c findings 4 and 5, UX review H4). */

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);

describe('a chosen file read as text', () => {
  it('is read when it is UTF-8 text within the limit, accents and BOM included', async () => {
    const file = new File(['\ufeffinterviewId,label\nabc-1,José Ñúñez\n'], 'lista.csv');
    expect(await readTextFile(file, IMPORT_TEXT_MAX)).toEqual({
      ok: true,
      text: 'interviewId,label\nabc-1,José Ñúñez\n',
    });
  });

  it('refuses an image renamed .csv, a UTF-16 file and Windows-1252 text: not UTF-8 text', async () => {
    const cases = [
      new File([PNG], 'foto.csv'),
      new File([Uint8Array.from([0xff, 0xfe, 0x61, 0x00, 0x62, 0x00])], 'utf16.csv'),
      new File([Uint8Array.from([0x4a, 0x6f, 0x73, 0xe9, 0x0a])], 'excel.csv'), // "José" in Windows-1252
      new File(['a'.repeat(70_000), Uint8Array.from([0xc3])], 'cut-late.csv'), // bad past the first bytes
    ];
    for (const file of cases)
      expect(await readTextFile(file, IMPORT_TEXT_MAX), file.name).toEqual({
        ok: false,
        problem: { kind: 'notText', name: file.name },
      });
  });

  it('refuses a file by its size without reading it when it cannot fit, and by its length when it does not', async () => {
    let read = false;
    // 10 characters take at most 33 bytes (3 a character, and a BOM).
    const huge = new File([new Uint8Array(34)], 'enorme.csv');
    huge.slice = () => {
      read = true;
      return new Blob([]);
    };
    huge.arrayBuffer = async () => {
      read = true;
      return new ArrayBuffer(0);
    };
    expect(await readTextFile(huge, 10)).toEqual({
      ok: false,
      problem: { kind: 'tooLarge', name: 'enorme.csv', size: 34, maxChars: 10 },
    });
    expect(read).toBe(false);
    // 12 characters in 12 bytes: could have fitted by its size (up to 3 bytes a character), but does not.
    expect(await readTextFile(new File(['abcdefghijkl'], 'largo.csv'), 10)).toEqual({
      ok: false,
      problem: { kind: 'tooLarge', name: 'largo.csv', size: 12, maxChars: 10, chars: 12 },
    });
    // 10 accented characters in 20 bytes fit.
    expect(await readTextFile(new File(['éééééééééé'], 'acentos.csv'), 10)).toEqual({ ok: true, text: 'éééééééééé' });
  });

  it('says what is wrong in both languages, naming the file and the limit', () => {
    expect(textFileProblemWords({ kind: 'tooLarge', name: 'b.csv', size: 6_500_000, maxChars: 2_000_000 })).toEqual({
      en: 'b.csv is 6.2 MB: too large; this takes up to 2,000,000 characters. Nothing was sent.',
      es: 'b.csv pesa 6.2 MB: es demasiado grande; aquí caben hasta 2,000,000 caracteres. No se envió nada.',
    });
    expect(
      textFileProblemWords({ kind: 'tooLarge', name: 'b.csv', size: 2_600_000, maxChars: 2_000_000, chars: 2_560_012 }),
    ).toEqual({
      en: 'b.csv has 2,560,012 characters; this takes up to 2,000,000. Nothing was sent.',
      es: 'b.csv tiene 2,560,012 caracteres; aquí caben hasta 2,000,000. No se envió nada.',
    });
    const notText = textFileProblemWords({ kind: 'notText', name: 'foto.csv' });
    expect(notText.en).toMatch(/^foto\.csv is not a text file/);
    expect(notText.es).toMatch(/^foto\.csv no es un archivo de texto/);
  });
});

describe('a field checked with the schema main checks it with', () => {
  it('says the schema’s own reason, in Spanish from says()', () => {
    expect(schemaReason(InterviewId, 'caso-17', 'es', '?')).toBeUndefined();
    expect(schemaReason(InterviewId, 'caso 17', 'en', '?')).toBe(
      'Interview ids use letters, digits and . _ : - only, starting with a letter or digit, without spaces',
    );
    expect(schemaReason(InterviewId, 'caso/17', 'es', '?')).toBe(
      'Un id de entrevista lleva solo letras, números y . _ : -, empieza con letra o número y no tiene espacios',
    );
    expect(schemaReason(SessionToken, 'abc', 'es', '?')).toBe('Un token de sesión tiene al menos 8 caracteres');
    expect(schemaReason(SessionToken, 'abc defgh', 'es', '?')).toBe('Un token de sesión no lleva espacios');
    expect(schemaReason(SessionToken, 'abcdefgh', 'es', '?')).toBeUndefined();
  });
});

describe('main’s refusal put at the form’s fields', () => {
  const refused: IpcErrorData = {
    code: 'INVALID_INPUT',
    message: { en: 'Some values are not valid: config.ca.', es: 'Algunos valores no son válidos: config.ca.' },
    issues: [{ path: 'config.ca', message: 'Paste the whole certificate', messageEs: 'Pega el certificado completo' }],
  };

  it('finds the reason of a field in the screen’s language, never English in Spanish', () => {
    expect(issueAt(refused, ['config.ca', 'ca'], 'es', 'Este valor no es válido.')).toBe(
      'Pega el certificado completo',
    );
    expect(issueAt(refused, ['config.ca'], 'en', 'x')).toBe('Paste the whole certificate');
    expect(issueAt(refused, ['config.host'], 'en', 'x')).toBeUndefined();
    const noSpanish = { ...refused, issues: [{ path: 'config.ca', message: 'Bad' }] };
    expect(issueAt(noSpanish, ['config.ca'], 'es', 'Este valor no es válido.')).toBe('Este valor no es válido.');
  });

  it('leaves the notice out only when the fields say every issue', () => {
    expect(fieldsSayIt(refused, ['config.ca', 'config.host'])).toBe(true);
    expect(fieldsSayIt(refused, ['config.host'])).toBe(false);
    expect(
      fieldsSayIt({ ...refused, issues: [...refused.issues!, { path: 'removeCa', message: 'x' }] }, ['config.ca']),
    ).toBe(false);
    expect(fieldsSayIt({ ...refused, issues: undefined }, ['config.ca'])).toBe(false);
    expect(fieldsSayIt(undefined, ['config.ca'])).toBe(false);
  });
});
