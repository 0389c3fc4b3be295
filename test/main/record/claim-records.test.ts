import { describe, expect, it } from 'vitest';
import { CLAIM_ATTEMPTS, ClaimContended, LOST, retryLostRaces } from '../../../main/record/claim-records';

/** The claim loops try again after a lost race, but not for ever (the races themselves: team-review.test.ts). */
describe('retryLostRaces', () => {
  it('tries again after each lost race and returns what settles, undefined included', async () => {
    let tries = 0;
    expect(await retryLostRaces(async () => (++tries < 3 ? LOST : 'claimed'), 'int-1')).toBe('claimed');
    expect(tries).toBe(3);
    expect(await retryLostRaces(async () => undefined, undefined)).toBeUndefined();
  });

  it(`stops after ${CLAIM_ATTEMPTS} lost races with ClaimContended, a retryable error naming the interview`, async () => {
    let tries = 0;
    const error = await retryLostRaces(async () => (tries++, LOST), 'int-1').catch((e: unknown) => e);
    expect(tries).toBe(CLAIM_ATTEMPTS);
    expect(error).toBeInstanceOf(ClaimContended);
    expect((error as ClaimContended).toIpcError()).toMatchObject({
      code: 'CLAIM_CONTENDED',
      retryable: true,
      details: { attempts: CLAIM_ATTEMPTS, interviewId: 'int-1' },
    });
  });

  it('lets a failure of the attempt itself through at once', async () => {
    let tries = 0;
    const refused = new Error('refused');
    await expect(retryLostRaces(async () => (tries++, Promise.reject(refused)), undefined)).rejects.toBe(refused);
    expect(tries).toBe(1);
  });
});
