import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordEngine } from '../../main/record/engines';
import { openRecord, type OpenRecord } from '../../main/record/open';
import { startPostgres, type TestPostgres } from './postgres';

/**
 * The two engines every record test runs on: PGlite in a folder of its own, and a real PostgreSQL server started for
 * the test file. `fresh()` gives a new, empty record's place each call; `open()` opens one (closed by `dispose`).
 */
export const ENGINES = ['embedded', 'team'] as const;

export function engineFactory(kind: (typeof ENGINES)[number]) {
  let server: TestPostgres | undefined;
  const folders: string[] = [];
  let databases = 0;
  const opened: OpenRecord[] = [];
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
    async open(): Promise<OpenRecord> {
      const record = await openRecord(await this.fresh());
      opened.push(record);
      return record;
    },
    async dispose() {
      await Promise.all(opened.map((r) => r.close()));
      await server?.stop();
      for (const folder of folders) rmSync(folder, { recursive: true, force: true });
    },
  };
}
