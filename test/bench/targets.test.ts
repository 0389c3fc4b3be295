import { describe, expect, it } from 'vitest';
import { targets as clientTargets } from '../../bench/client.bench';
import { targets as importTargets } from '../../bench/import.bench';
import { targets as reviewTargets } from '../../bench/review.bench';
import { describeTarget, judge, meets } from '../../bench/targets';

describe('bench targets', () => {
  it('reads each kind of target with its own edge', () => {
    expect(meets(1.5, { atMost: 1.5 })).toBe(true);
    expect(meets(1.51, { atMost: 1.5 })).toBe(false);
    expect(meets(0.25, { under: 0.25 })).toBe(false);
    expect(meets(0.24, { under: 0.25 })).toBe(true);
    expect(meets(0.8, { atLeast: 0.8 })).toBe(true);
    expect(meets(0.79, { atLeast: 0.8 })).toBe(false);
    expect(meets(1, { exactly: 1 })).toBe(true);
    expect(meets(2, { exactly: 1 })).toBe(false);
    expect([{ atMost: 1 }, { under: 1 }, { atLeast: 1 }, { exactly: 1 }].map(describeTarget)).toEqual([
      '≤ 1',
      '< 1',
      '≥ 1',
      '= 1',
    ]);
  });

  it('prints every figure, says met or missed where there is a target, and names targets with no figure', () => {
    const verdict = judge(
      { 'open-interview-ratio': 1.6, 'video-seek-bytes-fraction': 0.19, 'apikeys-10k-first-render-ms': 341 },
      {
        'open-interview-ratio': { atMost: 1.5 },
        'video-seek-bytes-fraction': { under: 0.25 },
        'renamed-figure': { atLeast: 1 },
      },
      (v) => v.toFixed(2),
    );
    expect(verdict.lines).toEqual([
      'open-interview-ratio: 1.60  (target ≤ 1.5: MISSED)',
      'video-seek-bytes-fraction: 0.19  (target < 0.25: met)',
      'apikeys-10k-first-render-ms: 341.00',
    ]);
    expect(verdict).toMatchObject({ met: 1, missed: 1, orphans: ['renamed-figure'] });
  });

  // Issue #23: on loopback these ratios divide a fixed cost by a call of ~1 ms or less (or, for the import, by a
  // bound the machine sets), so they stay printed without a target; the targets sit on what analysts live with.
  it('keeps targets off the loopback ratios and on the figures decided for them (docs/bench.md)', () => {
    expect(reviewTargets).not.toHaveProperty('open-interview-ratio');
    expect(reviewTargets).toMatchObject({
      'open-interview-ratio-100ms-service': { atMost: 1.25 },
      'open-interview-ratio-300ms-service': { atMost: 1.15 },
    });
    expect(importTargets).not.toHaveProperty('import-throughput-ratio');
    expect(importTargets).toMatchObject({ 'import-throughput-vs-encode-and-send-ratio': { atLeast: 0.9 } });
    expect(clientTargets).not.toHaveProperty('client-p50-ratio');
    expect(clientTargets).toMatchObject({ 'client-p50-ratio-20ms-service': { atMost: 1.05 } });
  });
});
