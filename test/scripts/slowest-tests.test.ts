import { describe, expect, it } from 'vitest';
import { formatSlowest, slowestFiles } from '../../scripts/slowest-tests.mjs';

const root = '/repo';

const vitest = {
  testResults: [
    { name: '/repo/test/main/a.test.ts', startTime: 1_000, endTime: 3_500 },
    { name: '/repo/test/main/b.test.ts', startTime: 1_000, endTime: 1_200 },
    // A file that failed to load has no times: left out, not counted as 0 s or NaN.
    { name: '/repo/test/main/broken.test.ts', status: 'failed' },
  ],
};

const playwright = {
  config: { rootDir: '/repo/test/e2e' },
  suites: [
    {
      file: 'shell.spec.ts',
      specs: [{ file: 'shell.spec.ts', tests: [{ results: [{ duration: 1_000 }, { duration: 500 }] }] }],
      // A describe block nests its specs a level down; its time counts for the same file.
      suites: [{ title: 'journeys', specs: [{ tests: [{ results: [{ duration: 2_000 }] }] }] }],
    },
    // The same file again in a second project: summed.
    { file: 'shell.spec.ts', specs: [{ tests: [{ results: [{ duration: 4_000 }] }] }] },
    { file: 'apikeys.spec.ts', specs: [{ tests: [{ results: [{ duration: 300 }] }, { results: [] }] }] },
  ],
};

describe('slowestFiles', () => {
  it('reads both reports, sums Playwright per file, and sorts slowest first', () => {
    expect(slowestFiles({ vitest, playwright, root })).toEqual([
      { file: 'test/e2e/shell.spec.ts', runner: 'playwright', seconds: 7.5 },
      { file: 'test/main/a.test.ts', runner: 'vitest', seconds: 2.5 },
      { file: 'test/e2e/apikeys.spec.ts', runner: 'playwright', seconds: 0.3 },
      { file: 'test/main/b.test.ts', runner: 'vitest', seconds: 0.2 },
    ]);
  });

  it('keeps only the slowest ten, or the limit given', () => {
    const many = {
      testResults: Array.from({ length: 14 }, (_, i) => ({
        name: `/repo/test/f${i}.test.ts`,
        startTime: 0,
        endTime: (i + 1) * 1_000,
      })),
    };
    const ten = slowestFiles({ vitest: many, root });
    expect(ten).toHaveLength(10);
    expect(ten[0]).toEqual({ file: 'test/f13.test.ts', runner: 'vitest', seconds: 14 });
    expect(ten[9]!.seconds).toBe(5);
    expect(slowestFiles({ vitest: many, root, limit: 3 }).map((r) => r.seconds)).toEqual([14, 13, 12]);
  });

  it('gives nothing when a runner left no report', () => {
    expect(slowestFiles({ root })).toEqual([]);
    expect(slowestFiles({ vitest: {}, playwright: { suites: [] }, root })).toEqual([]);
    expect(slowestFiles({ playwright, root }).map((r) => r.runner)).toEqual(['playwright', 'playwright']);
  });
});

describe('formatSlowest', () => {
  it('prints one aligned line per file, seconds with one decimal', () => {
    expect(formatSlowest(slowestFiles({ vitest, playwright, root, limit: 2 }))).toBe(
      [
        'the 2 slowest test files:',
        '  seconds  runner      file',
        '      7.5  playwright  test/e2e/shell.spec.ts',
        '      2.5  vitest      test/main/a.test.ts',
      ].join('\n'),
    );
  });

  it('prints nothing without rows', () => {
    expect(formatSlowest([])).toBe('');
  });
});
