// How the audit trail is read to be checked, page by page: shared by main (audit-records.ts) and the chain walker's
// thread (chain-walker.mjs). Plain JavaScript, as chain-hash.mjs, so the thread imports it as it is.

/**
 * An entry's size as read, in SQL: its texts with its detail, and what holding one costs in memory whatever its texts
 * (ROW_BYTES). The bound on details alone let a 200,000-character action through (red team 17), and counting texts
 * alone let 2,000,000 small entries pass as 32 MB and hold 2 GB (red team 18); the trail check, the evidence export's
 * budget and the trail search count this.
 */
export const ROW_BYTES = 1024;
export const ENTRY_BYTES_SQL = `octet_length(detail::text) + octet_length(action) + octet_length(environment) + coalesce(octet_length(interview_id), 0) + ${ROW_BYTES}`;

/** Entries whose sizes one query reads, and the most of them one page holds. */
export const CHAIN_PAGE = 10_000;
export const CHAIN_PAGE_BYTES = 32 * 1024 * 1024;

/**
 * The entries after `after`, in pages: their sizes read CHAIN_PAGE at a time, then each run of them whose details fit
 * in CHAIN_PAGE_BYTES (one entry at least) read by its range of seq, so no detail is read more than twice. Any login
 * may write entries of 256 KiB, and 10,000 of them held 2.6 GB of every app's main at its next check (red team 15);
 * cutting the pages inside one query read every following detail again (12 s where 1.9 s had been).
 */
export async function* chainPagesBySize(after, sizesAfter, rowsBetween) {
  for (;;) {
    const sizes = await sizesAfter(after);
    for (let from = 0; from < sizes.length;) {
      let to = from + 1;
      for (let bytes = Number(sizes[from].bytes); to < sizes.length; to++) {
        bytes += Number(sizes[to].bytes);
        if (bytes > CHAIN_PAGE_BYTES) break;
      }
      yield await rowsBetween(from === 0 ? after : sizes[from - 1].seq, sizes[to - 1].seq);
      from = to;
    }
    if (sizes.length < CHAIN_PAGE) return;
    after = sizes[sizes.length - 1].seq;
  }
}
