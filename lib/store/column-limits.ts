/**
 * The first value longer than its column, if any. Lengths are counted in characters (code
 * points), as MySQL/MariaDB count them for utf8mb4 VARCHAR columns; SQLite does not enforce
 * lengths at all, so services check before writing and both stores behave the same.
 */
export function overlongField(values: Array<[field: string, value: unknown, max: number]>): { field: string; max: number } | undefined {
  for (const [field, value, max] of values) {
    if (typeof value === 'string' && value.length > max && [...value].length > max) return { field, max };
  }
  return undefined;
}
