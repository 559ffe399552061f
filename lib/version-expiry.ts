/**
 * When an API version stops being served (`version_data.versions.<name>.expires`). The reference
 * gateway writes `2006-01-02 15:04` (UTC); ISO 8601 is accepted too; empty or `-1` means never.
 * Shared by the gateway, which refuses expired versions, and the apis service, which refuses an
 * expiry that is no date when the definition is saved.
 */
export function parseExpiry(expires: unknown): number | undefined {
  if (typeof expires !== 'string' || expires.trim() === '' || expires.trim() === '-1') return undefined;
  const text = expires.trim();
  const reference = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2})$/.exec(text);
  const time = Date.parse(reference ? `${reference[1]}T${reference[2]}:00Z` : text);
  if (Number.isNaN(time)) throw new Error(`version expiry '${expires}' is not a date (use 'YYYY-MM-DD HH:MM')`);
  return time;
}
