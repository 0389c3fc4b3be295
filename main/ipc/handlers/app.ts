import type { DomainHandlers } from '../router';

export const appHandlers: DomainHandlers<'app'> = {
  info: async (_input, ctx) => ({ name: 'Omni Reviewer', version: ctx.shell.version, shell: ctx.shell.kind, platform: ctx.shell.platform }),
  openExternal: async ({ url }, ctx) => ({ opened: await ctx.shell.openExternal(url) }),
  takeDeepLink: async (_input, ctx) => ctx.shell.takeDeepLink(),
};
