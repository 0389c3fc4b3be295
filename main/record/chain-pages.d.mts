/** Types of chain-pages.mjs (plain JavaScript, so the chain walker's thread can import it as it is). */
export declare const ROW_BYTES: number;
export declare const ENTRY_BYTES_SQL: string;
export declare const CHAIN_PAGE: number;
export declare const CHAIN_PAGE_BYTES: number;
export declare function chainPagesBySize<Row>(
  after: number,
  sizesAfter: (after: number) => Promise<{ seq: number; bytes: string | number }[]>,
  rowsBetween: (after: number, upTo: number) => Promise<Row[]>,
): AsyncGenerator<Row[], void>;
