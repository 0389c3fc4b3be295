import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { IpcErrorData } from '../../../common/ipc/define';
import type { ClaimView } from '../../../common/ipc/team';
import { callOmni, keys, readAgain, type OmniCallError } from '../../api/index';
import { useOnTeamDatabase } from './team-queue';

/** Renewed well before the lease ends, so one missed renewal (a slow network) does not lose it. */
const RENEW_FRACTION = 1 / 3;
const FALLBACK_RENEW_MS = 5 * 60_000;
/** After a failure other than someone else holding it (the team database away): try again. */
const RETRY_MS = 30_000;

export type ClaimState =
  | { kind: 'pending' }
  | { kind: 'mine'; claim: ClaimView }
  | { kind: 'held'; error: IpcErrorData }
  | { kind: 'failed'; error: IpcErrorData };

/**
 * While an interview is open its analyst holds it: claimed on opening, renewed while open, so nobody else on the team
 * takes it. Outside the opening's reads (a call, not a query): the panels never wait for the claim. Only on a team
 * database.
 */
export function useClaim(interviewId: string, wanted = true): ClaimState {
  const queryClient = useQueryClient();
  const [state, setState] = useState<ClaimState>({ kind: 'pending' });
  // Alone on this computer's record there is nobody to hold it from.
  const team = useOnTeamDatabase();
  useEffect(() => {
    if (!team || !wanted) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    setState({ kind: 'pending' });
    const take = async () => {
      try {
        const claim = await callOmni((api) => api.team.claim({ interviewId }));
        if (stopped) return;
        setState({ kind: 'mine', claim });
        void readAgain(queryClient, { queryKey: keys.team.holders() });
        const leaseMs = new Date(claim.expiresAt).getTime() - new Date(claim.claimedAt).getTime();
        timer = setTimeout(take, leaseMs > 0 ? leaseMs * RENEW_FRACTION : FALLBACK_RENEW_MS);
      } catch (error) {
        if (stopped) return;
        const data = (error as OmniCallError).data;
        const held = data.code === 'CLAIMED_BY_OTHER';
        setState({ kind: held ? 'held' : 'failed', error: data });
        if (!held) timer = setTimeout(take, RETRY_MS);
      }
    };
    void take();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [interviewId, queryClient, team, wanted]);
  return state;
}
