import { environmentTrail, exportEnvironmentTrail } from '../../review/exports';
import { reviewService } from '../../review/service';
import type { DomainHandlers } from '../router';

export const appHandlers: DomainHandlers<'app'> = {
  info: async (_input, ctx) => ({
    name: 'Omni Reviewer',
    version: ctx.shell.version,
    shell: ctx.shell.kind,
    platform: ctx.shell.platform,
    setAside: ctx.shell.setAside,
  }),
  openExternal: async ({ url }, ctx) => ({ opened: await ctx.shell.openExternal(url) }),
  // An OS link is read like a pasted one: the interview joins the queue with its token, which stays in main.
  takeDeepLink: async (_input, ctx) => {
    const url = ctx.shell.takeDeepLink();
    return url ? reviewService(ctx).openDeepLink(url) : null;
  },
  auditTrail: async (_input, ctx) => environmentTrail(ctx),
  recordLink: async (_input, ctx) => ({ ...ctx.record.link(), engine: ctx.record.engine }),
  exportAuditTrail: async (_input, ctx) => exportEnvironmentTrail(ctx),
};
