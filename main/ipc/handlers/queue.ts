import { queueBulk } from '../../review/bulk';
import { reviewService } from '../../review/service';
import type { DomainHandlers } from '../router';

export const queueHandlers: DomainHandlers<'queue'> = {
  list: async (_input, ctx) => reviewService(ctx).queue.list(),
  page: async ({ after, limit, ...query }, ctx) => reviewService(ctx).queue.page(query, after, limit),
  counts: async ({ search, scope }, ctx) => reviewService(ctx).queue.counts(search, scope),
  neighbours: async ({ interviewId, ...query }, ctx) => reviewService(ctx).queue.neighbours(interviewId, query),
  views: async (_input, ctx) => ctx.record.views.list(),
  saveView: async ({ name, query, shared }, ctx) => ctx.record.views.save(name, query, shared),
  deleteView: async ({ id }, ctx) => ({ deleted: await ctx.record.views.remove(id) }),
  add: async ({ items }, ctx) => reviewService(ctx).queue.add(items),
  importText: async ({ text, format }, ctx) => reviewService(ctx).importText(text, format),
  // Through the bulk desk's single-row path, so one removal is audited like each row of a bulk one.
  remove: async ({ interviewId }, ctx) => ({ removed: await queueBulk(ctx).removeOne(interviewId) }),
  restore: async ({ interviewId }, ctx) => queueBulk(ctx).restoreOne(interviewId),
  setState: async ({ interviewId, state }, ctx) => reviewService(ctx).setState(interviewId, state),
  attachToken: async ({ interviewId, sessionToken }, ctx) =>
    reviewService(ctx).queue.attachToken(interviewId, sessionToken),
  clearToken: async ({ interviewId }, ctx) => reviewService(ctx).queue.clearToken(interviewId),
  openDeepLink: async ({ url }, ctx) => reviewService(ctx).openDeepLink(url),
  demoSeeds: async (_input, ctx) => reviewService(ctx).demoSeeds(),
  addDemoSeeds: async ({ interviewIds }, ctx) => reviewService(ctx).addDemoSeeds(interviewIds),
};
