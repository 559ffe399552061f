/** What a service checks before writing: `[field as the client names it, value, column size]`. */
export type ColumnValue = [field: string, value: unknown, max: number];

/**
 * Bytes a MySQL/MariaDB `TEXT` column holds (knex `t.text(name)` without a size). `longtext`
 * columns hold 4 GiB and are bounded by the request body limit instead.
 */
export const TEXT_MAX_BYTES = 65_535;

/**
 * The first value longer than its column, if any. Lengths are counted in characters (code
 * points), as MySQL/MariaDB count them for utf8mb4 VARCHAR columns; SQLite does not enforce
 * lengths at all, so services check before writing and both stores behave the same.
 */
export function overlongField(values: ColumnValue[]): { field: string; max: number } | undefined {
  for (const [field, value, max] of values) {
    if (typeof value === 'string' && value.length > max && [...value].length > max) return { field, max };
  }
  return undefined;
}

/**
 * The message naming the first value that does not fit: `values` are VARCHAR columns (counted
 * in characters), `texts` are `TEXT` columns (counted in UTF-8 bytes, as MySQL counts them).
 * Undefined when everything fits. Each service throws it as its own `GW_ERR_*_INVALID` (400).
 */
export function columnLengthProblem(
  values: ColumnValue[],
  texts: Array<[field: string, value: unknown]> = [],
): string | undefined {
  const tooLong = overlongField(values);
  if (tooLong) return `${tooLong.field} is longer than ${tooLong.max} characters`;
  for (const [field, value] of texts) {
    if (typeof value === 'string' && value.length > TEXT_MAX_BYTES / 3 && Buffer.byteLength(value) > TEXT_MAX_BYTES)
      return `${field} is longer than ${TEXT_MAX_BYTES} bytes`;
  }
  return undefined;
}
