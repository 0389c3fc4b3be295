import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ListApiKeysResponse } from '../../../common/omni/admin';
import { unreadFieldsOf } from '../../../common/omni/common';
import { RawIdvResponse } from '../../../common/omni/session';
import { readTolerantly, UNREAD_ITEMS } from '../../../main/omni/tolerant-read';

/** Red teams 17 and 18: reading costs time in proportion to the answer, and one bad item blanks nothing. */

const check = (i: number, readable: boolean) => ({
  name: readable ? `check${i}` : { en: `check ${i}` },
  severity: 'low',
  version: '1',
  result: 0.1,
});
const fraudRisk = { name: 'checkFraudRisk', severity: 'LOW', version: '1', result: 0.04 };

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

describe('readTolerantly: cost and lists', () => {
  it('reads 2,000 key records without an id beside good ones in well under a second, the good ones kept', () => {
    const good = Array.from({ length: 100 }, (_, i) => ({ id: `k${i}`, name: `key ${i}` }));
    const withoutId = Array.from({ length: 2_000 }, (_, i) => ({ name: `no id ${i}`, createdAt: 1_700_000_000_000 }));
    // Sizes the reader before red team 17 took tens of seconds on (past the test's own time limit).
    const parsed = readTolerantly(ListApiKeysResponse, [...withoutId, ...good]);
    expect(parsed.success).toBe(true);
    expect(parsed.data).toEqual(good);
    // As they came: the epoch time is not read into ISO text.
    expect(unreadFieldsOf(parsed.data)).toEqual({ [UNREAD_ITEMS]: withoutId });
  });

  it('sets aside an item of a top-level list alone, as it came, and reports it under unreadFields', () => {
    const answer = {
      content: [
        { id: 'k1', name: 'Main' },
        { name: 'no id', enabled: 'true' },
        { id: 'k3', name: null, enabled: 'false' },
        'not a record',
      ],
      totalElements: 4,
    };
    const parsed = readTolerantly(ListApiKeysResponse, deepFreeze(answer));
    expect(parsed.success).toBe(true);
    expect(parsed.data).toEqual([
      { id: 'k1', name: 'Main' },
      { id: 'k3', enabled: false },
    ]);
    expect(unreadFieldsOf(parsed.data)).toEqual({
      [UNREAD_ITEMS]: [{ name: 'no id', enabled: 'true' }, 'not a record'],
    });
    // A list read whole carries no report.
    expect(unreadFieldsOf(readTolerantly(ListApiKeysResponse, [{ id: 'k1' }]).data)).toEqual({});
  });

  it('still refuses a list none of whose items can be read, naming the items', () => {
    const parsed = readTolerantly(ListApiKeysResponse, [{ name: 'a' }, { id: {} }]);
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((issue) => issue.path)).toEqual([
      [0, 'id'],
      [1, 'id'],
    ]);
  });

  it('reads a Java long id above 2^53 rather than refusing the list', () => {
    const parsed = readTolerantly(
      ListApiKeysResponse,
      JSON.parse('[{"id":1234567890123456789,"name":"snowflake"},{"id":1e21},{"id":7}]'),
    );
    expect(parsed.success).toBe(true);
    // JSON.parse has already rounded the digits; what it made of them is kept, in plain digits.
    expect(parsed.data!.map((record) => record.id)).toEqual(['1234567890123456800', '1000000000000000000000', '7']);
    expect(readTolerantly(ListApiKeysResponse, [{ id: 1.5 }]).success).toBe(false);
  });

  it('shows the readable checks beside 100 unreadable ones and a large field beyond the spec, quickly', () => {
    const answer = deepFreeze({
      checkResults: [
        ...Array.from({ length: 4 }, (_, i) => check(i, true)),
        ...Array.from({ length: 100 }, (_, i) => check(i, false)),
      ],
      fraudRisk: { ...fraudRisk, responseText: null, topNFraudCodes: 'F1' },
      trace: Array.from({ length: 50_000 }, (_, i) => ({ span: i, op: 'db' })),
    });
    // Sizes the reader before red team 17 took tens of seconds on (past the test's own time limit).
    const parsed = readTolerantly(RawIdvResponse, answer);
    expect(parsed.success).toBe(true);
    expect(parsed.data!.checkResults.map((c) => c.name)).toEqual(['check0', 'check1', 'check2', 'check3']);
    expect(unreadFieldsOf(parsed.data)).toEqual({ checkResults: answer.checkResults.slice(4) });
    expect(parsed.data!.fraudRisk).toMatchObject({ result: 0.04, topNFraudCodes: [] });
    expect(unreadFieldsOf(parsed.data!.fraudRisk)).toEqual({ topNFraudCodes: 'F1' });
    expect(parsed.data!.trace).toBe(answer.trace);
  });

  it('adds to the unreadFields an answer already carries without changing the answer as it came', () => {
    const answer = deepFreeze({
      checkResults: [check(0, true), 'odd'],
      fraudRisk: null,
      unreadFields: { earlier: 1, checkResults: ['before'] },
    });
    const parsed = readTolerantly(RawIdvResponse, answer);
    expect(parsed.success).toBe(true);
    expect(unreadFieldsOf(parsed.data)).toEqual({ earlier: 1, checkResults: ['before', 'odd'] });
    expect(answer.unreadFields).toEqual({ earlier: 1, checkResults: ['before'] });
  });

  it('refuses, with a clear reason and in bounded time, an answer that needs more passes than the budget', () => {
    // 40 required levels and a leaf that fits nothing: every level is tried in turn, two passes a level.
    let schema: z.ZodType = z.object({ leaf: z.string() });
    let answer: unknown = { leaf: {} };
    for (let level = 0; level < 40; level++) {
      schema = z.object({ child: schema });
      answer = { child: answer };
    }
    // Sizes the reader before red team 17 took tens of seconds on (past the test's own time limit).
    const parsed = readTolerantly(schema, answer);
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0]!.message).toMatch(/passes/);
  });
});

describe('a list of thousands of items not in the contract’s shape (red team 18)', () => {
  it('is refused as not the service’s, having read only as many leniently as an answer of the contract has', () => {
    const quirky = Array.from({ length: 100_000 }, (_, i) => (i === 0 ? { id: 'k0' } : { name: null, enabled: null }));
    const parsed = readTolerantly(ListApiKeysResponse, quirky);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toMatch(/more than 10000 items not in the contract's shape/);
    // A few thousand are read, each on its own.
    const some = readTolerantly(ListApiKeysResponse, quirky.slice(0, 5_000));
    expect(some.success && some.data).toHaveLength(1);
    expect(unreadFieldsOf(some.success ? some.data : [])[UNREAD_ITEMS]).toHaveLength(4_999);
  });
});

describe('a dictionary with one entry not in the contract’s shape (red team 18)', () => {
  it('keeps the others, and the odd one under its holder’s unreadFields by the dictionary’s name', () => {
    const schema = z.looseObject({ links: z.record(z.string(), z.url({ protocol: /^https?$/ })).optional() });
    const parsed = readTolerantly(schema, {
      links: { a: 'https://x.example/a.pdf', b: 'ftp://x.example/b.pdf', c: 'https://x.example/c.pdf' },
    });
    expect(parsed.success).toBe(true);
    const data = parsed.data as { links: Record<string, string> };
    expect(Object.keys(data.links)).toEqual(['a', 'c']);
    expect(unreadFieldsOf(data)).toEqual({ links: { b: 'ftp://x.example/b.pdf' } });
  });
});

describe('a dictionary entry the service itself named unreadFields (red team 19)', () => {
  it('is kept as the service sent it, never taken for what the reader set aside', () => {
    const schema = z.looseObject({ links: z.record(z.string(), z.url({ protocol: /^https?$/ })).optional() });
    const sent = { a: 'https://x.example/a', b: 'ftp://x.example/b', unreadFields: { q: 'https://x.example/q' } };
    const parsed = readTolerantly(schema, { links: sent });
    expect(parsed.success).toBe(true);
    const unread = unreadFieldsOf(parsed.data) as { links?: Record<string, unknown> };
    expect(
      unread.links?.unreadFields ?? (parsed.data as { links?: Record<string, unknown> }).links?.unreadFields,
    ).toEqual(sent.unreadFields);
  });
});
