import { MemoryVault } from '../main/auth/memory-vault';
import { recordAuditTrail } from '../main/record/audit-records';
import { openRecord, reviewRecord } from '../main/record/index';
import { ReviewQueue } from '../main/review/queue';

/**
 * Run by record.bench.ts in a process of its own: the memory the embedded database adds to an app that opens it and
 * lists its queue, without the garbage of having filled it. Prints the extra RSS in MB.
 */
const dataDir = process.argv[2]!;
const before = process.memoryUsage().rss;
const record = await openRecord({ kind: 'embedded', dataDir });
const audit = recordAuditTrail(record.db, () => 'demo');
const queue = new ReviewQueue(
  reviewRecord(record).queue,
  new MemoryVault(),
  () => 'demo',
  (env) => audit.lastRecorded('opened', env),
);
const listed = (await queue.list()).length;
// The listing itself is the renderer's to hold; what stays is the engine's.
await new Promise((resolve) => setTimeout(resolve, 500));
const extra = (process.memoryUsage().rss - before) / 1e6;
await record.close();
process.stdout.write(JSON.stringify({ extra, listed }));
