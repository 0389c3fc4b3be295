export interface SlowFile {
  file: string;
  runner: 'vitest' | 'playwright';
  seconds: number;
}
/** The slowest test files across vitest's and Playwright's JSON reports, slowest first. */
export function slowestFiles(reports: {
  vitest?: unknown;
  playwright?: unknown;
  root: string;
  limit?: number;
}): SlowFile[];
/** The table printed at the end of `npm test`; empty when there is no file to show. */
export function formatSlowest(rows: SlowFile[]): string;
