import { BULK_MAX } from '../../../common/ipc/bulk';
import { queueBulk } from '../../review/bulk';
import type { DomainHandlers } from '../router';

export const bulkHandlers: DomainHandlers<'bulk'> = {
  viewIds: async (query, ctx) => queueBulk(ctx).viewIds(query, BULK_MAX),
  release: async ({ ids }, ctx) => queueBulk(ctx).release(ids),
  handOver: async ({ ids, to }, ctx) => queueBulk(ctx).handOver(ids, to),
  remove: async ({ ids }, ctx) => queueBulk(ctx).remove(ids),
  restore: async ({ ids }, ctx) => queueBulk(ctx).restore(ids),
  readRisk: async ({ ids }, ctx) => queueBulk(ctx).readRisk(ids),
  exportCsv: async ({ ids, language }, ctx) => queueBulk(ctx).exportCsv(ids, language),
};
