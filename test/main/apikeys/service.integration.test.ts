import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKeyListView, SavedFileView } from '../../../common/ipc/apikeys';
import { handlers } from '../../../main/ipc/handlers/index';
import { createRouter } from '../../../main/ipc/router';
import { parseCsv } from '../../../main/validation/csv';
import { startHarness, type Harness } from '../../helpers/demo-support';
import { APP_URL, callThrough, failure, serviceContext } from '../../helpers/router-calls';

/** The API-key domain end to end against the demo server, through the router: listing and export. */

let h: Harness;
let router: ReturnType<typeof createRouter>;
let adminRouter: ReturnType<typeof createRouter>;
const saved: { suggestedName: string; data: Uint8Array }[] = [];

const call = <T>(channel: string, input: unknown, via = router) => callThrough<T>(via, channel, input);

beforeAll(async () => {
  h = await startHarness();
  router = createRouter({ handlers, context: serviceContext(await h.client(), saved), appUrl: APP_URL });
  // The second organization's key is not a super administrator.
  const other = h.credentials.organizations.find((o) => !o.superAdmin)!;
  adminRouter = createRouter({
    handlers,
    context: serviceContext(await h.client({ credentials: other }), saved),
    appUrl: APP_URL,
  });
});
afterAll(() => h.close());
afterEach(() => h.demo('reset'));

describe('API keys', () => {
  it('lists masked keys with the extra fields; a super administrator can pick another organization', async () => {
    const own = await call<ApiKeyListView>('apikeys.list', {});
    expect(own.keys.length).toBeGreaterThan(0);
    for (const k of own.keys) expect(k.maskedKey).toMatch(/•/);
    expect(own.extraColumns).toContain('organizationId');
    expect(JSON.stringify(own)).not.toContain(h.credentials.apiKey);
    const other = h.credentials.organizations.find((o) => !o.superAdmin)!;
    const chosen = await call<ApiKeyListView>('apikeys.list', { organization: other.organizationId });
    expect(chosen.organizationRequested).toBe(true);
    expect(new Set(chosen.keys.map((k) => k.extra.organizationId))).toEqual(new Set([other.organizationId]));
  });

  it('ignores the organization for a key that is not super administrator', async () => {
    const admin = h.credentials.organizations.find((o) => o.superAdmin)!;
    const other = h.credentials.organizations.find((o) => !o.superAdmin)!;
    const view = await call<ApiKeyListView>('apikeys.list', { organization: admin.organizationId }, adminRouter);
    expect(new Set(view.keys.map((k) => k.extra.organizationId))).toEqual(new Set([other.organizationId]));
  });

  it('exports the rows it is given as CSV', async () => {
    const result = await call<SavedFileView>('apikeys.exportCsv', {
      columns: ['id', 'name'],
      rows: [
        ['k1', '=cmd()'],
        ['k2', 'Clave, "principal"'],
      ],
    });
    expect(result).toMatchObject({ saved: true, rows: 2 });
    expect(parseCsv(new TextDecoder().decode(saved.at(-1)!.data))).toEqual([
      ['id', 'name'],
      ['k1', "'=cmd()"],
      ['k2', 'Clave, "principal"'],
    ]);
    expect((await failure(call('apikeys.exportCsv', { columns: ['a', 'b'], rows: [['x']] }))).code).toBe(
      'INVALID_INPUT',
    );
  });
});
