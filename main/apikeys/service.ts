import type { CellValue } from '../../common/ipc/apikeys';
import { saveCsvExport } from '../export-csv';
import type { MainContext } from '../ports';
import { toCsv } from '../validation/csv';
import { apiKeyList } from './rows';

/** The organization's API keys, as rows the renderer may show (masked, no secret field), and their CSV export. */
export function apiKeysService(ctx: MainContext) {
  return {
    async list(organization: string | undefined) {
      const records = await ctx.omni().call('listApiKeys', { query: organization ? { apiKey: organization } : {} });
      return {
        ...apiKeyList(records),
        organizationRequested: organization !== undefined,
        fetchedAt: new Date().toISOString(),
      };
    },
    exportCsv(columns: string[], rows: CellValue[][]) {
      return saveCsvExport(ctx, {
        namePrefix: 'api-keys',
        csv: toCsv(columns, rows),
        rows: rows.length,
        what: 'apiKeysCsv',
      });
    },
  };
}
