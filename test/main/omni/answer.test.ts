import { describe, expect, it } from 'vitest';
import {
  abbreviated,
  LONG_TEXT,
  RAW_VIEW_DEPTH,
  RAW_VIEW_ITEMS,
  serviceAnswer,
  withoutUrlQuery,
} from '../../../main/omni/answer';
import { REDACTED, registerSecretSource } from '../../../main/log';

describe('serviceAnswer', () => {
  it('lists the fields the contract does not name, nested ones with their path', () => {
    const answer = serviceAnswer('getRawIdvResults', {
      checkResults: [{ name: 'idCheck', severity: 'low', version: '1', result: 1, engine: 'idv-core-7' }],
      fraudRisk: null,
      traceId: 't-1',
      unreadFields: { odd: 1 },
    });
    expect(answer.endpoint).toBe('getRawIdvResults');
    expect(answer.beyondSpec).toEqual([
      { path: 'checkResults.0.engine', value: 'idv-core-7' },
      { path: 'traceId', value: 't-1' },
    ]);
  });

  it('shows a field beyond the spec nested thousands deep, or listing millions, to a depth and a length', () => {
    // 10 KB of brackets: every walk of the answer had run out of stack, and both panels showed INTERNAL instead.
    const deep = JSON.parse(`${'['.repeat(5000)}1${']'.repeat(5000)}`) as unknown;
    const answer = serviceAnswer('getRawIdvResults', {
      checkResults: [],
      fraudRisk: null,
      meta: deep,
      many: Array.from({ length: 100_000 }, (_, i) => i),
    });
    const meta = answer.beyondSpec.find((f) => f.path === 'meta')!.value;
    expect(JSON.stringify(meta)).toContain(`nested deeper than ${RAW_VIEW_DEPTH} levels`);
    const many = answer.beyondSpec.find((f) => f.path === 'many')!.value as unknown[];
    expect(many).toHaveLength(RAW_VIEW_ITEMS + 1);
    expect(many.at(-1)).toBe(`… (${100_000 - RAW_VIEW_ITEMS} more items)`);
  });

  it('reads a record of loose entries: any field name is in the spec, an extra inside an entry is not', () => {
    const answer = serviceAnswer('getCrossDocResults', {
      fullName: { match: true, values: { ine: 'ANA' }, comparedBy: 'xdoc' },
      note: 'plain',
    });
    expect(answer.beyondSpec).toEqual([{ path: 'fullName.comparedBy', value: 'xdoc' }]);
  });

  it('cuts the query off every URL, and credentials in an address', () => {
    const answer = serviceAnswer('getContractLinks', {
      success: true,
      additionalInformation: { c1: 'https://files.example/c1.pdf?X-Amz-Signature=abc&X-Amz-Expires=3600' },
    });
    expect(answer.body).toEqual({ success: true, additionalInformation: { c1: 'https://files.example/c1.pdf?…' } });
    expect(withoutUrlQuery('https://user:pw@h.example/a#frag')).toBe('https://h.example/a?…');
    expect(withoutUrlQuery('https://h.example/a')).toBe('https://h.example/a');
    expect(withoutUrlQuery('not a url ?x=1')).toBe('not a url ?x=1');
  });

  it('redacts tokens, secret-named fields, held secrets and unmasked keys', () => {
    const held = 'held-session-token-1234';
    const source = { knownSecrets: () => [held] };
    registerSecretSource(source);
    expect(serviceAnswer('authorizeServer', { token: 'eyJhbGciOi.eyJzdWIiOi.sig', traceId: 't' }).body).toEqual({
      token: REDACTED,
      traceId: 't',
    });
    const keys = serviceAnswer('listApiKeys', [
      { id: '1', maskedKey: 'abcd1234efgh5678', value: 'abcd1234efgh5678', note: `copied from ${held}` },
    ]);
    expect(keys.body).toEqual([
      { id: '1', maskedKey: 'abcd••••5678', value: REDACTED, note: `copied from ${REDACTED}` },
    ]);
    // `value` is a secret only where the endpoint says so: elsewhere it is data.
    expect(serviceAnswer('getCrossDocResults', { name: { value: 'ANA' } }).body).toEqual({ name: { value: 'ANA' } });
  });

  it('abbreviates a file in base64 to its start and length', () => {
    const pdf = 'JVBERi0xLjcK'.repeat(LONG_TEXT);
    const answer = serviceAnswer('calculateContractNom151', {
      success: true,
      additionalInformation: { signedDocumentBase64: pdf },
    });
    expect(answer.body).toEqual({ success: true, additionalInformation: { signedDocumentBase64: abbreviated(pdf) } });
    expect(abbreviated(pdf)).toMatch(/^JVBERi0xLjcK.*… \(\d+ characters\)$/);
  });

  it('redacts a long text before cutting it, so a secret across the cut leaves nothing (red team 9)', () => {
    const key = 'sk_live_7f3a9c1e5b2d8a4f6e0b3c7d9a1e5f2b4c6d8e0a';
    const source = { knownSecrets: () => [key] };
    registerSecretSource(source);
    const text = `${'x'.repeat(44)}${key}${'y'.repeat(LONG_TEXT)}`;
    const body = JSON.stringify(serviceAnswer('validateRfc', { message: text }).body);
    for (let at = 0; at + 8 <= key.length; at++) expect(body).not.toContain(key.slice(at, at + 8));
    expect(source).toBeDefined();
  });
});
