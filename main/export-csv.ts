import type { MainContext } from './ports';

/** Saves a CSV the user asked for (a dialog in Electron, a download in the web shell) and records it in the trail. */
export async function saveCsvExport(
  ctx: MainContext,
  opts: { namePrefix: string; csv: string; rows: number; what: string },
): Promise<{ saved: boolean; rows: number; savedTo?: string; downloadUrl?: string }> {
  const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
  const saved = await ctx.files.save({
    suggestedName: `${opts.namePrefix}-${stamp}.csv`,
    data: new TextEncoder().encode(opts.csv),
    mimeType: 'text/csv',
  });
  if (!saved) return { saved: false, rows: opts.rows };
  await ctx.audit.append({ action: 'downloaded', detail: { what: opts.what, rows: opts.rows } });
  return { saved: true, rows: opts.rows, ...saved };
}
