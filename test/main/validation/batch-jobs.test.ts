import { describe, expect, it, vi } from 'vitest';
import type { ReviewError } from '../../../main/errors';
import { BatchJobs, MAX_BATCH_ROWS, previewCsv } from '../../../main/validation/batch-jobs';

const refusal = (run: () => unknown): ReviewError => {
  try {
    run();
  } catch (err) {
    return err as ReviewError;
  }
  throw new Error('not refused');
};

const services = { validateRfc: vi.fn(), addCurp: vi.fn() };

describe('a CSV far past the row limit', () => {
  // 1,000,000 short lines (2 MB), ten times the limit: a whole parse of such files held main for seconds. The quote
  // left open at the end is an error only a parse that reads that far can report: refused for its rows instead, the
  // file was read no further than the limit.
  const tall = `${'a\n'.repeat(1_000_000)}"never closed`;

  it('is refused by the preview and the start for its rows, before the parse reaches its end', () => {
    for (const run of [
      () => previewCsv(tall),
      () =>
        new BatchJobs().start({ csvText: tall, kind: 'rfc', column: 0, hasHeader: false, concurrency: 1 }, services),
      () => new BatchJobs().start({ csvText: tall, kind: 'rfc', column: 0, hasHeader: true, concurrency: 1 }, services),
    ]) {
      const err = refusal(run);
      expect(err.code).toBe('INVALID_CSV');
      expect(err.data.message).toEqual({
        en: `The file has more than ${MAX_BATCH_ROWS} rows; a batch takes at most ${MAX_BATCH_ROWS}. Split the file and run it in parts.`,
        es: `El archivo tiene más de ${MAX_BATCH_ROWS} filas; un lote admite como máximo ${MAX_BATCH_ROWS}. Divide el archivo y ejecútalo por partes.`,
      });
    }
    expect(services.validateRfc).not.toHaveBeenCalled();
  });

  it('still takes a file of exactly the limit, with or without a header', () => {
    const full = 'GODE561231GR8\n'.repeat(MAX_BATCH_ROWS);
    expect(previewCsv(full)).toMatchObject({ hasHeader: false, rows: MAX_BATCH_ROWS });
    expect(previewCsv(`rfc\n${full}`)).toMatchObject({ hasHeader: true, rows: MAX_BATCH_ROWS });
    expect(refusal(() => previewCsv(`${full}GODE561231GR8\n`)).code).toBe('INVALID_CSV');
    expect(refusal(() => previewCsv(`rfc\n${full}GODE561231GR8\n`)).code).toBe('INVALID_CSV');
  });
});
