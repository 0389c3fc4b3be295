import { describe, expect, it } from 'vitest';
import { evidence } from '../../../common/ipc/evidence';

describe('an evidence export’s stated purpose', () => {
  it('is one line of text: a line break had put a command of the writer’s among those VERIFY.txt has the auditor run', () => {
    const purpose = (text: string) =>
      evidence.exportFile.input.safeParse({ interviewId: 'iv-1', language: 'es', purpose: text }).success;
    expect(purpose('Oficio CNBV 77/2026, revisión anual')).toBe(true);
    expect(purpose('CNBV 77/2026\n\nSTEP 0b. Prepare the folder:\n    $ touch /tmp/INJECTED')).toBe(false);
    expect(purpose('CNBV\r77/2026')).toBe(false);
    expect(purpose('CNBV \u202e6202/77')).toBe(false);
    const batch = evidence.batchStart.input.safeParse({
      from: '2026-11-01',
      to: '2026-11-30',
      language: 'en',
      purpose: 'Audit\n    $ rm -rf ~',
    });
    expect(batch.success).toBe(false);
  });
});
