import type { AuditTrailView } from '../../../common/ipc/app';
import type { MainContext } from '../../ports';
import { reviewService } from '../../review/service';
import type { DomainHandlers } from '../router';

async function auditTrail(ctx: MainContext): Promise<AuditTrailView> {
  const env = ctx.environments.active();
  // One chain spans every environment, so it is verified whole; the list shows the active environment only.
  const [entries, chain] = await Promise.all([ctx.audit.list(), ctx.audit.verify()]);
  return {
    environment: { id: env.id, name: env.name, kind: env.kind },
    entries: entries.filter((e) => e.environment === env.id).reverse(),
    chain,
  };
}

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
  auditTrail: async (_input, ctx) => auditTrail(ctx),
  recordLink: async (_input, ctx) => ({ ...ctx.record.link(), engine: ctx.record.engine }),
  exportAuditTrail: async (_input, ctx) => {
    const trail = await auditTrail(ctx);
    const exportedAt = new Date().toISOString();
    const data = new TextEncoder().encode(
      JSON.stringify(
        {
          format: 'omni-reviewer.audit-trail',
          version: 1,
          environment: trail.environment,
          exportedAt,
          chain: trail.chain,
          entries: trail.entries,
        },
        null,
        2,
      ),
    );
    const stamp = exportedAt.slice(0, 19).replace(/[:T]/g, '-');
    const saved = await ctx.files.save({
      suggestedName: `audit-trail-${trail.environment.id}-${stamp}.json`,
      data,
      mimeType: 'application/json',
    });
    if (saved) await ctx.audit.append({ action: 'downloaded', detail: { what: 'auditTrail' } });
    return saved;
  },
};
