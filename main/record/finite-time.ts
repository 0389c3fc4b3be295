/**
 * A time read from the database as ISO text, or undefined for one that is no point in time: pg reads `infinity` and
 * `-infinity` as numbers, and rows of earlier versions may hold them (migration 0016 refuses them from now on). One
 * such row made every analyst's queue fail (red team 17).
 */
export function finiteIso(value: Date | number | string | null | undefined): string | undefined {
  if (value === null || value === undefined) return undefined;
  const time = value instanceof Date ? value.getTime() : new Date(value).getTime();
  return Number.isFinite(time) ? new Date(time).toISOString() : undefined;
}
