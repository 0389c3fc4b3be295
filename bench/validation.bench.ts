import { parseCsv } from '../main/validation/csv';
import { median } from './support';
import type { Targets } from './targets';

/**
 * An RFC/CURP batch's CSV, parsed in main before the preview (main/validation/csv.ts).
 *
 * - `csv-quoted-vs-plain-ratio`: parsing 3.2 MB that is one quoted field of doubled quotes (`""` over and over, red
 *   team 9's file: 23 s when each pair searched on to the next line end) ÷ parsing 3.2 MB of plain short rows, median
 *   of 7 runs each, alternated. Linear parsing keeps it near 1; anything quadratic shows as hundreds.
 */

export const targets: Targets = { 'csv-quoted-vs-plain-ratio': { atMost: 5 } };

const BYTES = 3_200_000;
const RUNS = 7;

export default async function bench(): Promise<Record<string, number>> {
  const quoted = `rfc\n"${'""'.repeat(BYTES / 2)}"\n`;
  const plain = 'rfc\n' + 'XAXX010101000\n'.repeat(Math.floor(BYTES / 14));
  const time = (text: string) => {
    const started = performance.now();
    parseCsv(text);
    return performance.now() - started;
  };
  time(quoted);
  time(plain);
  const [quotedMs, plainMs]: [number[], number[]] = [[], []];
  for (let run = 0; run < RUNS; run++) {
    quotedMs.push(time(quoted));
    plainMs.push(time(plain));
  }
  return { 'csv-quoted-vs-plain-ratio': median(quotedMs) / median(plainMs) };
}
