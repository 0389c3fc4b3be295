import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reviewService } from '../../../main/review/service';
import type { AppContextHandle } from '../../../main/app-context';
import { startTestApp } from '../../helpers/app-context';

/**
 * A session token carries its interview's id, and the service files a write on that interview whatever the app meant:
 * a link from a web page (omni-reviewer://interview/X?token=<Y's token>) had swapped X's token, and the analyst's note
 * and approval of X reached Y, the high-fraud interview, while the record and the trail said X.
 */
let app: AppContextHandle;
let dir: string;
const X = 'demo-clean-pass';
const Y = 'demo-fraud-high';
let tokens: Record<string, string>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'omni-token-other-'));
  app = await startTestApp(dir);
  const seeds = (await fetch(`${app.demoUrl()!}/__demo/interviews`).then((r) => r.json())) as {
    interviewId: string;
    sessionToken: string;
  }[];
  tokens = Object.fromEntries(seeds.map((s) => [s.interviewId, s.sessionToken]));
  await reviewService(app.context).addDemoSeeds([X, Y]);
  // The tokens as held: the demo issues each anew, dated to the second, so the listing's may differ from them.
  for (const id of [X, Y]) tokens[id] = (await app.context.vault.getSessionToken('demo', id))!;
}, 60_000);

afterAll(async () => {
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

const notesAt = async (id: string) =>
  ((await fetch(`${app.demoUrl()!}/__demo/interviews/${id}`).then((r) => r.json())) as { notes: unknown[] }).notes
    .length;
const heldFor = (id: string) => app.context.vault.getSessionToken('demo', id);

describe('a session token of another interview', () => {
  it('is not attached from a link, and the interview keeps the token it holds', async () => {
    const review = reviewService(app.context);
    expect(await review.openDeepLink(`omni-reviewer://interview/${X}?token=${tokens[Y]}`)).toEqual({
      interviewId: X,
      linkTokenNotUsed: 'otherInterview',
    });
    expect(await heldFor(X)).toBe(tokens[X]);
    // A new interview from such a link joins the queue without it.
    expect(await review.openDeepLink(`omni-reviewer://interview/link-new?token=${tokens[Y]}`)).toMatchObject({
      linkTokenNotUsed: 'otherInterview',
    });
    expect(await heldFor('link-new')).toBeUndefined();
    expect((await review.queue.require('link-new')).hasSessionToken).toBe(false);
  });

  it('is not swapped in unasked by a link carrying another token of the same interview', async () => {
    const review = reviewService(app.context);
    const reissued = `${tokens[X]!.split('.').slice(0, 2).join('.')}.another-signature`;
    expect(await review.openDeepLink(`omni-reviewer://interview/${X}?token=${reissued}`)).toEqual({
      interviewId: X,
      linkTokenNotUsed: 'otherTokenHeld',
    });
    expect(await heldFor(X)).toBe(tokens[X]);
    // Its own token, or one for an interview holding none, is attached as before.
    expect(await review.openDeepLink(`omni-reviewer://interview/${X}?token=${tokens[X]}`)).toEqual({ interviewId: X });
    await review.queue.clearToken(Y);
    expect(await review.openDeepLink(`omni-reviewer://interview/${Y}?token=${tokens[Y]}`)).toEqual({ interviewId: Y });
    expect(await heldFor(Y)).toBe(tokens[Y]);
  });

  it('is refused where it is attached by hand or added, and set aside on its line of an import', async () => {
    const review = reviewService(app.context);
    await expect(review.queue.attachToken(X, tokens[Y]!)).rejects.toMatchObject({
      data: {
        code: 'SESSION_TOKEN_OF_OTHER_INTERVIEW',
        message: { en: `This session token is interview ${Y}’s, not ${X}’s: it was not attached.` },
      },
    });
    await expect(review.queue.add([{ interviewId: X, sessionToken: tokens[Y]! }])).rejects.toMatchObject({
      data: { code: 'SESSION_TOKEN_OF_OTHER_INTERVIEW' },
    });
    const imported = await review.importText(`interviewId,sessionToken\nimported-x,${tokens[Y]}\n`, 'csv');
    expect(imported.tokensAttached).toBe(0);
    expect(imported.problems).toEqual([
      expect.objectContaining({
        line: 2,
        message: expect.objectContaining({ es: expect.stringContaining(`es de la entrevista ${Y}, no de imported-x`) }),
      }),
    ]);
    expect(JSON.stringify(imported)).not.toContain(tokens[Y]!);
    expect(await heldFor(X)).toBe(tokens[X]);
  });

  it('stored before (an earlier version, a team member): nothing is recorded or sent with it', async () => {
    const review = reviewService(app.context);
    await app.context.vault.setSessionToken('demo', X, tokens[Y]!);
    const atY = await notesAt(Y);
    await review.open(X);
    await review.saveDraft(X, 'notes', 'Nota del analista sobre X');
    await expect(review.sendText(X, 'notes')).rejects.toMatchObject({
      data: { code: 'SESSION_TOKEN_OF_OTHER_INTERVIEW' },
    });
    await expect(review.decide(X, 'approve', 'Todo coincide en X', false)).rejects.toMatchObject({
      data: { code: 'SESSION_TOKEN_OF_OTHER_INTERVIEW' },
    });
    // The write path below the review desk refuses it too: nothing leaves for Y, whoever asks.
    await expect(
      app.context.omni().call('addConferenceNotes', { body: { notes: 'direct' } }, { interviewId: X }),
    ).rejects.toMatchObject({ code: 'SESSION_TOKEN_OF_OTHER_INTERVIEW' });
    expect(await notesAt(Y)).toBe(atY);
    expect(await app.context.record.decisions.all('demo', X)).toEqual([]);
    expect((await app.context.audit.list({ interviewId: X })).map((e) => e.action)).not.toContain('decided');
    expect((await review.drafts.get(X)).notes?.text).toBe('Nota del analista sobre X');
  });
});
