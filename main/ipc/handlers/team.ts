import { teamDesk } from '../../review/team-desk';
import type { DomainHandlers } from '../router';

export const teamHandlers: DomainHandlers<'team'> = {
  status: async (_input, ctx) => teamDesk(ctx).status(),
  takeNext: async ({ within }, ctx) => teamDesk(ctx).takeNext(within),
  claim: async ({ interviewId }, ctx) => teamDesk(ctx).claim(interviewId),
  release: async ({ interviewId }, ctx) => teamDesk(ctx).release(interviewId),
  reassign: async ({ interviewId, to }, ctx) => teamDesk(ctx).reassign(interviewId, to),
  holders: async (_input, ctx) => teamDesk(ctx).holders(),
  changes: async ({ after, waitMs }, ctx) => teamDesk(ctx).changes(after, waitMs),
  overview: async (_input, ctx) => teamDesk(ctx).overview(),
  saveSettings: async (settings, ctx) => teamDesk(ctx).saveSettings(settings),
  reasonCodes: async (_input, ctx) => teamDesk(ctx).reasonCodes(),
  saveReasonCodes: async ({ codes }, ctx) => teamDesk(ctx).saveReasonCodes(codes),
  audit: async (query, ctx) => teamDesk(ctx).audit(query),
};
