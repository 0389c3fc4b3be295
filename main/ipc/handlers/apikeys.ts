import { apiKeysService } from '../../apikeys/service';
import type { DomainHandlers } from '../router';

export const apikeysHandlers: DomainHandlers<'apikeys'> = {
  list: async ({ organization }, ctx) => apiKeysService(ctx).list(organization),
  exportCsv: async ({ columns, rows }, ctx) => apiKeysService(ctx).exportCsv(columns, rows),
};
