import { describe, expect, it } from 'vitest';
import { interviewOfToken, otherInterviewOfToken } from '../../common/session-token';

const jwt = (claims: unknown) =>
  `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.c2lnbmF0dXJl`;

describe('the interview a session token names', () => {
  it('reads the id a JWT carries, in either spelling, without verifying it', () => {
    expect(interviewOfToken(jwt({ kind: 'session', interviewId: 'demo-clean-pass' }))).toBe('demo-clean-pass');
    expect(interviewOfToken(jwt({ interview_id: 'ñandú-1' }))).toBe('?');
    expect(interviewOfToken(jwt({ interview_id: 'i-2' }))).toBe('i-2');
    expect(interviewOfToken(jwt({ sessionId: 'i-3', sub: 'user-9' }))).toBe('i-3');
    // Claims that disagree, or a claim that is no id, name "another interview".
    expect(interviewOfToken(jwt({ interviewId: 'x', interview_id: 'y' }))).toBe('?');
    expect(interviewOfToken(jwt({ interviewId: 12 }))).toBe('?');
    expect(interviewOfToken(jwt({ interviewId: null, interview_id: 'x' }))).toBe('x');
  });

  it('says nothing of an opaque token, one naming none, or a payload that is not JSON', () => {
    for (const token of ['opaque-token-123', jwt({ sub: 'x' }), jwt(['interviewId']), 'a.b%%.c', 'a..c'])
      expect(interviewOfToken(token)).toBeUndefined();
  });

  it('is "another interview" only when it names one other than the interview it is for', () => {
    expect(otherInterviewOfToken(jwt({ interviewId: 'y' }), 'x')).toBe('y');
    expect(otherInterviewOfToken(jwt({ interviewId: 'x' }), 'x')).toBeUndefined();
    expect(otherInterviewOfToken('opaque-token-123', 'x')).toBeUndefined();
  });
});
