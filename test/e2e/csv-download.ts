import type { Download } from '@playwright/test';

/** A downloaded CSV's rows as the app writes them (UTF-8 with a byte-order mark for spreadsheets, CRLF). */
export async function csvLines(download: Download): Promise<string[]> {
  const text = Buffer.concat(await (await download.createReadStream()).toArray()).toString('utf8');
  return text
    .replace(/^\ufeff/, '')
    .trimEnd()
    .split('\r\n');
}
