import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openRecord } from '../../main/record/open';

/**
 * Makes the embedded record's copy of an empty, migrated database (main/record/engines.ts keeps it in the temp
 * folder) by opening one record and closing it. scripts/test.mjs runs it, built, before vitest: the run's temp folder
 * is new, and without it each of vitest's workers and Playwright's shell hosts made the copy at once on its first
 * record (initdb and the migrations, 5 s of CPU each; a test's hook timed out at load 13).
 */
const dir = mkdtempSync(join(tmpdir(), 'omni-record-template-'));
try {
  const record = await openRecord({ kind: 'embedded', dataDir: join(dir, 'db') });
  await record.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
