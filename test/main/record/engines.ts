import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordEngine } from '../../../main/record/engines';
import { startPostgres, type TestPostgres } from '../../helpers/postgres';

/**
 * The two engines every record test runs on: PGlite in a folder of its own, and a real PostgreSQL server started for
 * the test file. `fresh()` gives a new, empty record each call.
 */
export const ENGINES = ['embedded', 'team'] as const;

export function engineFactory(kind: (typeof ENGINES)[number]) {
  let server: TestPostgres | undefined;
  const folders: string[] = [];
  let databases = 0;
  return {
    async fresh(): Promise<RecordEngine> {
      if (kind === 'embedded') {
        const dataDir = mkdtempSync(join(tmpdir(), 'omni-record-'));
        folders.push(dataDir);
        return { kind: 'embedded', dataDir };
      }
      server ??= await startPostgres();
      const database = await server.createDatabase(`record_${++databases}`);
      return { kind: 'team', host: server.host, port: server.port, user: server.user, database, tls: 'disable' };
    },
    async dispose() {
      await server?.stop();
      for (const folder of folders) rmSync(folder, { recursive: true, force: true });
    },
  };
}
