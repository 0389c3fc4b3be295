import { openRecord } from '../main/record/index';
import { appQueue, FIRST_PAGE, FIRST_VIEW } from './record.bench';

/**
 * Run by record.bench.ts in a process of its own: the memory the embedded database adds to an app that opens it and
 * shows its queue (the first page and the filters' counts), without the garbage of having filled it. Prints the extra
 * RSS in MB and the queue's length, as counted.
 */
const dataDir = process.argv[2]!;
const before = process.memoryUsage().rss;
const record = await openRecord({ kind: 'embedded', dataDir });
const queue = appQueue(record);
const [, counts] = await Promise.all([queue.page(FIRST_VIEW, undefined, FIRST_PAGE), queue.counts()]);
// The page itself is the renderer's to hold; what stays is the engine's.
await new Promise((resolve) => setTimeout(resolve, 500));
const extra = (process.memoryUsage().rss - before) / 1e6;
await record.close();
process.stdout.write(JSON.stringify({ extra, total: counts.total }));
